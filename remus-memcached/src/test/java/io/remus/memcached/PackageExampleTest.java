package io.remus.memcached;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example that opens io.remus.memcached's documentation compiles against the module as it is, given the
 * {@code nodes} its text names. (remus-ds's PackageExamplesTest checks the other published modules' examples; it
 * cannot see this module, which depends on remus-ds.)
 */
class PackageExampleTest {
    private static String snippet(String doc) {
        int start = doc.indexOf("{@snippet :");
        assertTrue(start >= 0, "no {@snippet :} in package-info.java");
        int depth = 1;
        int i = start + 1;
        for (; depth > 0 && i < doc.length(); i++) {
            char c = doc.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        }
        return doc.substring(start + "{@snippet :".length(), i - 1).lines()
                .map(l -> l.replaceFirst("^\\s*\\* ?", "")).collect(Collectors.joining("\n"));
    }

    @Test
    void shouldCompileThePackageExample(@TempDir Path out) throws IOException {
        Path info = Path.of("src/main/java/io/remus/memcached/package-info.java");
        String code = snippet(Files.readString(info));
        Path source = out.resolve("Example.java");
        Files.writeString(source, "import io.remus.memcached.*;\nclass Example {\n"
                + "    static void example(java.util.List<io.remus.core.RemusNode> nodes) throws Exception {\n" + code
                + "\n    }\n}\n");
        StringWriter errors = new StringWriter();
        PrintWriter err = new PrintWriter(errors);
        int status = ToolProvider.findFirst("javac").orElseThrow().run(err, err, List.of("-proc:none", "-d",
                out.resolve("classes").toString(), "-classpath", System.getProperty("java.class.path"),
                source.toString()).toArray(String[]::new));
        err.flush();
        assertEquals(0, status, errors.toString());
    }
}
