package io.remus.ds.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example that opens each exported package's documentation in the published modules compiles against the
 * modules as they are: every {@code {@snippet :}} of every exported package's {@code package-info.java} becomes
 * the body of a method whose parameters are the variables the text before the example names, and javac must
 * accept them all. remus-ds's tests see every published module, so the check lives here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PackageExamplesTest {
    private static final List<String> PUBLISHED = List.of("verbs-ffm", "remus-core", "remus-alock", "remus-check", "remus-ds");
    private static final Pattern EXPORTS = Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;");
    private static final String T = "io.remus.core.ComputeThread t";
    private static final String CONTEXT = "io.remus.alock.LockContext context, " + T;
    /** The variables that an example takes from the text before it, by package; none where it is not listed. */
    private static final Map<String, String> GIVEN = Map.ofEntries(
            Map.entry("io.remus.core.error", T),
            Map.entry("io.remus.core.rpc", "io.remus.core.fabric.FabricNode nodeA, io.remus.core.fabric.FabricNode nodeB"),
            Map.entry("io.remus.alock", T),
            Map.entry("io.remus.alock.kind", CONTEXT),
            Map.entry("io.remus.alock.spin", CONTEXT),
            Map.entry("io.remus.alock.mcs", CONTEXT),
            Map.entry("io.remus.alock.asymmetric", CONTEXT),
            Map.entry("io.remus.alock.queue", CONTEXT),
            Map.entry("io.remus.alock.table", CONTEXT),
            Map.entry("io.remus.check", "io.remus.ds.object.RemoteCounter counter"),
            Map.entry("io.remus.check.spec", "History history, io.remus.ds.set.RemoteSet set"),
            Map.entry("io.remus.ds.context", "io.remus.core.RemusNode node"),
            Map.entry("io.remus.ds.delegate", "io.remus.core.ComputeThread owner, " + T),
            Map.entry("io.remus.ds.index", "io.remus.core.RemusNode node, " + T + ", io.remus.core.ComputeThread t2"
                    + ", io.remus.core.rpc.RpcEndpoint endpoint, io.remus.core.rpc.RpcEndpoint clientEndpoint"),
            Map.entry("io.remus.ds.identity", "io.remus.core.ComputeThread thread, io.remus.core.ComputeThread other"),
            Map.entry("io.remus.ds.map", T),
            Map.entry("io.remus.ds.name", "io.remus.core.ComputeThread thread, io.remus.ds.reclaim.Reclaimer reclaimer"),
            Map.entry("io.remus.ds.object", T + ", io.remus.core.ComputeThread u"),
            Map.entry("io.remus.ds.queue", T + ", io.remus.core.ComputeThread u"),
            Map.entry("io.remus.ds.reclaim", T),
            Map.entry("io.remus.ds.replicate", "io.remus.core.RemusNode node, " + T),
            Map.entry("io.remus.ds.set", T));

    private record Example(String pkg, String code) {
    }

    /** {@return the checkout's root: the folder whose pom.xml names the remus-ds module} */
    private static Path root() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>remus-ds</module>")) {
                return dir;
            }
        }
        throw new AssertionError("no parent pom.xml above " + Path.of("").toAbsolutePath());
    }

    /** {@return the code of the first inline snippet of a documentation comment, its lines without their {@code *}} */
    static String snippet(String doc) {
        int start = doc.indexOf("{@snippet :");
        if (start < 0) {
            return null;
        }
        int depth = 1;
        int i = start + 1;
        for (; depth > 0 && i < doc.length(); i++) {
            char c = doc.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        }
        String body = doc.substring(start + "{@snippet :".length(), i - 1);
        return body.lines().map(l -> l.replaceFirst("^\\s*\\* ?", "")).collect(Collectors.joining("\n"));
    }

    private static List<Example> examples(Path root) throws IOException {
        List<Example> examples = new ArrayList<>();
        for (String module : PUBLISHED) {
            Path sources = root.resolve(module).resolve("src/main/java");
            Matcher m = EXPORTS.matcher(Files.readString(sources.resolve("module-info.java")));
            while (m.find()) {
                String pkg = m.group(1);
                String code = snippet(Files.readString(sources.resolve(pkg.replace('.', '/')).resolve("package-info.java")));
                assertTrue(code != null, pkg + "'s package-info.java has no {@snippet :}");
                examples.add(new Example(pkg, code));
            }
        }
        return examples;
    }

    private static String imports(String pkg) {
        List<String> packages = pkg.equals("io.remus.verbs") || pkg.equals("io.remus.core.fabric")
                ? List.of(pkg, "io.remus.core.sim")
                : List.of("io.remus.core", "io.remus.core.config", "io.remus.core.error", "io.remus.core.memory",
                        "io.remus.core.rpc", "io.remus.core.shm", "io.remus.core.sim", "io.remus.core.time", "io.remus.core.verbs", "io.remus.alock", "io.remus.alock.kind",
                        "io.remus.alock.spin", "io.remus.alock.mcs", "io.remus.alock.asymmetric", "io.remus.alock.queue",
                        "io.remus.alock.table", "io.remus.check", "io.remus.check.spec", "io.remus.ds.context", "io.remus.ds.delegate",
                        "io.remus.ds.identity", "io.remus.ds.index", "io.remus.ds.map", "io.remus.ds.name", "io.remus.ds.object", "io.remus.ds.queue",
                        "io.remus.ds.reclaim", "io.remus.ds.replicate", "io.remus.ds.set");
        StringBuilder b = new StringBuilder();
        for (String p : packages) {
            b.append("import ").append(p).append(".*;\n");
        }
        return b.append("import java.lang.foreign.*;\nimport java.time.*;\nimport java.util.*;\n")
                .append("import java.nio.charset.StandardCharsets;\n").toString();
    }

    @Test
    void shouldFindTheCodeOfAnInlineSnippetWithItsBraces() {
        String doc = "/**\n * First.\n *\n * {@snippet :\n * try (A a = b()) {\n *     a.c();\n * }\n * }\n *\n * <p>More {@code x}.\n */";
        assertEquals("\ntry (A a = b()) {\n    a.c();\n}\n", snippet(doc));
        assertEquals(null, snippet("/** No example. */"));
    }

    @Test
    void shouldCompileTheExampleThatOpensEveryExportedPackage(@TempDir Path out) throws IOException {
        List<Example> examples = examples(root());
        List<String> args = new ArrayList<>(List.of("-proc:none", "-d", out.resolve("classes").toString(), "-classpath",
                System.getProperty("java.class.path")));
        for (int i = 0; i < examples.size(); i++) {
            Example e = examples.get(i);
            Path source = out.resolve("Example" + i + ".java");
            Files.writeString(source, "// " + e.pkg() + "\n" + imports(e.pkg()) + "class Example" + i + " {\n"
                    + "    static void example(" + GIVEN.getOrDefault(e.pkg(), "") + ") throws Exception {\n" + e.code()
                    + "\n    }\n}\n");
            args.add(source.toString());
        }
        StringWriter errors = new StringWriter();
        PrintWriter err = new PrintWriter(errors);
        int status = ToolProvider.findFirst("javac").orElseThrow().run(err, err, args.toArray(String[]::new));
        err.flush();
        assertEquals(0, status, examples.size() + " examples (each ExampleN.java names its package on line 1):\n" + errors);
        assertTrue(examples.size() >= 25, "the exported packages of the five published modules: " + examples.size());
    }
}
