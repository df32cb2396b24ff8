package io.remus.tools.repository;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documents that lead a user to the API name what the published modules' descriptors export: the
 * README's list of JPMS modules and its module table, {@code docs/MODULES.md}'s package lists and {@code docs/API.md} name every
 * module and exported package, the README leads to {@code docs/API.md} and {@code bin/api-docs}, and every
 * exported package's documentation opens with an example ({@code {@snippet}} before its first heading).
 */
class ApiDocsTest {
    /** The published library modules' folders. */
    private static final List<String> PUBLISHED = List.of("verbs-ffm", "remus-core", "remus-alock", "remus-check", "remus-ds",
            "remus-memcached");
    private static final Pattern MODULE = Pattern.compile("(?m)^module\\s+([\\w.]+)\\s*\\{");
    private static final Pattern EXPORTS = Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;");

    private record Module(String folder, String name, List<String> exports) {
        /** {@return the package as the documents may shorten it: {@code .set} for io.remus.ds.set in io.remus.ds} */
        String shortName(String pkg) {
            return pkg.startsWith(name + ".") ? pkg.substring(name.length()) : pkg;
        }

        boolean named(String text, String pkg) {
            return text.contains("`" + pkg + "`") || text.contains("`" + shortName(pkg) + "`");
        }
    }

    private static List<Module> modules(Path root) throws IOException {
        List<Module> modules = new ArrayList<>();
        for (String folder : PUBLISHED) {
            String descriptor = Files.readString(root.resolve(folder).resolve("src/main/java/module-info.java"));
            Matcher m = MODULE.matcher(descriptor);
            assertTrue(m.find(), folder + "'s module-info.java declares no module");
            List<String> exports = new ArrayList<>();
            for (Matcher e = EXPORTS.matcher(descriptor); e.find(); ) {
                exports.add(e.group(1));
            }
            modules.add(new Module(folder, m.group(1), exports));
        }
        return modules;
    }

    private static String section(String text, String heading) {
        int start = text.indexOf(heading);
        assertTrue(start >= 0, "no '" + heading + "'");
        int end = text.indexOf("\n#", start + heading.length());
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + start + "'"));
    }

    @Test
    void shouldNameEveryPublishedModuleAndExportedPackageWhereTheReadmeAndDocsListThem() throws IOException {
        Path root = Repository.root();
        String readme = Files.readString(root.resolve("README.md"));
        String modulesDoc = Files.readString(root.resolve("docs/MODULES.md"));
        String apiDoc = Files.readString(root.resolve("docs/API.md"));
        String jpms = readme.substring(readme.indexOf("The jars are JPMS modules"), readme.indexOf("need", readme.indexOf("The jars are JPMS modules")));
        List<Runnable> checks = new ArrayList<>();
        for (Module m : modules(root)) {
            checks.add(() -> assertTrue(jpms.contains("`" + m.name() + "`"), m.name() + " in the README's JPMS modules: " + jpms));
            String row = line(readme, "| `" + m.folder() + "`");
            String doc = line(section(modulesDoc, "## `" + m.folder() + "`"), "Packages");
            for (String pkg : m.exports()) {
                checks.add(() -> assertTrue(m.named(row, pkg), pkg + " in the README's module table: " + row));
                checks.add(() -> assertTrue(m.named(doc, pkg), pkg + " in docs/MODULES.md's packages of " + m.folder() + ": " + doc));
                String link = "](../" + m.folder() + "/src/main/java/" + pkg.replace('.', '/') + "/package-info.java)";
                checks.add(() -> assertTrue(apiDoc.contains("[`" + pkg + "`" + link), pkg + " linked in docs/API.md"));
            }
        }
        checks.add(() -> assertTrue(readme.contains("(docs/API.md)"), "the README links docs/API.md"));
        checks.add(() -> assertTrue(readme.contains("bin/api-docs"), "the README names bin/api-docs"));
        checks.add(() -> assertTrue(Files.isExecutable(root.resolve("bin/api-docs")), "bin/api-docs is executable"));
        assertAll(checks.stream().map(c -> (org.junit.jupiter.api.function.Executable) c::run));
    }

    @Test
    void shouldOpenEveryExportedPackagesDocumentationWithAnExample() throws IOException {
        Path root = Repository.root();
        List<Runnable> checks = new ArrayList<>();
        for (Module m : modules(root)) {
            for (String pkg : m.exports()) {
                Path info = root.resolve(m.folder()).resolve("src/main/java").resolve(pkg.replace('.', '/')).resolve("package-info.java");
                String doc = Files.readString(info);
                int snippet = doc.indexOf("{@snippet");
                int heading = doc.indexOf("<h2>");
                checks.add(() -> assertTrue(snippet >= 0 && (heading < 0 || snippet < heading),
                        pkg + ": no {@snippet} before the first heading of " + root.relativize(info)));
            }
        }
        assertAll(checks.stream().map(c -> (org.junit.jupiter.api.function.Executable) c::run));
    }
}
