package io.remus.tools.repository;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the checkout is, for the tests that read the repository's own files. */
final class Repository {
    private Repository() {
    }

    /**
     * Walks up from the working directory (maven runs tests in the module's) to the checkout's root.
     *
     * @return the root: the folder with {@code .git}, or the parent {@code pom.xml} that names the tools module
     * @throws IOException when a pom.xml cannot be read
     */
    static Path root() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return dir;
            }
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>tools</module>")) {
                return dir;
            }
        }
        throw new AssertionError("no repository root (a .git or the parent pom.xml) above "
                + Path.of("").toAbsolutePath());
    }
}
