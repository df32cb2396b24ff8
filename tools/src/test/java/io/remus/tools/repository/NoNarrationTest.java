package io.remus.tools.repository;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Documents and comments describe the software as it is: no file of the repository narrates its
 * own development (see {@link Narration} for what counts). The examples below are built by
 * concatenation so that this file does not match itself.
 */
class NoNarrationTest {
    private static final Set<String> SKIPPED_DIRS =
            Set.of(".git", "target", ".softroce", "out", "node_modules", "__pycache__", ".idea");
    private static final Set<String> TEXT_EXTENSIONS = Set.of("md", "java", "sh", "py", "c", "h");

    @Test
    void shouldFindNarrationWhenPlanted() {
        List<String> planted = List.of(
                "What we found (seventeenth" + " session): the defaults",
                "the " + "fifteenth" + " session's boot C",
                "in the 15th" + " session",
                "see session" + " 15, item 2",
                "Session" + " #3 ran it",
                "twenty-first" + " session",
                "the previous" + " session left it open",
                "before the " + "fifth run" + " of --repeat",
                "Since the " + "eleventh boot" + " of the day");
        for (String text : planted) {
            assertEquals(1, Narration.find(text).size(), () -> "not caught: " + text);
        }
    }

    @Test
    void shouldFindNarrationWhenSplitAcrossCommentLines() {
        String javadoc = "    /**\n     * (docs/PERFORMANCE.md, twelfth\n     *" + " session). Rounds\n     */\n";
        String shell = "# found in the ninth\n#" + " session\n";
        assertEquals(List.of(new Narration.Hit(2, "twelfth * " + "session")), Narration.find(javadoc));
        assertEquals(List.of(new Narration.Hit(1, "ninth # " + "session")), Narration.find(shell));
    }

    @Test
    void shouldReportTheLineOfEveryHit() {
        String text = "line one\nthe third" + " session\nclean\nsession" + " 4 and the 2nd" + " session\n";
        List<Narration.Hit> hits = Narration.find(text);
        assertEquals(List.of(2, 4, 4), hits.stream().map(Narration.Hit::line).toList());
    }

    @Test
    void shouldIgnoreThePlainWordWhenNotNarration() {
        List<String> legit = List.of(
                "log in with an SSH session first",
                "a session's time on the device is limited",
                "sessions end when idle; each session holds one machine",
                "both sessions share a key",
                "with session keys rotated",
                "the first run of a JVM compiles its hot path",
                "the fourth run of --repeat begins after the warm-up",
                "a 15 s session timeout",
                "RDMA session-less transport");
        for (String text : legit) {
            assertEquals(List.of(), Narration.find(text), () -> "flagged: " + text);
        }
    }

    @Test
    void shouldFindNoNarrationWhenScanningTheRepository() throws IOException {
        Path root = Repository.root();
        List<String> hits = new ArrayList<>();
        List<Path> scanned = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(root) && SKIPPED_DIRS.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    String text = textOf(file);
                    if (text != null) {
                        scanned.add(file);
                        for (Narration.Hit hit : Narration.find(text)) {
                            hits.add(root.relativize(file) + ":" + hit.line() + ": " + hit.text());
                        }
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
        assertTrue(scanned.contains(root.resolve("pom.xml")), "the scan did not reach the root pom.xml: " + root);
        assertTrue(scanned.size() > 50, "only " + scanned.size() + " files scanned under " + root);
        if (!hits.isEmpty()) {
            fail("documents and comments narrate development (describe the software as it is; history "
                    + "belongs in commit messages):\n" + String.join("\n", hits));
        }
    }

    /** The file's text when it is one this test reads (sources, documents, scripts), else null. */
    private static String textOf(Path file) throws IOException {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        boolean byName = name.equals("pom.xml")
                || (dot > 0 && TEXT_EXTENSIONS.contains(name.substring(dot + 1)));
        boolean script = dot < 0 && startsWithShebang(file);
        if (!byName && !script) {
            return null;
        }
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                return null;
            }
        }
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .decode(java.nio.ByteBuffer.wrap(bytes))
                .toString();
    }

    private static boolean startsWithShebang(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && head[0] == '#' && head[1] == '!';
        }
    }
}
