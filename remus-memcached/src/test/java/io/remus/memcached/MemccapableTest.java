package io.remus.memcached;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's {@code memccapable} (libmemcached-tools) runs every ASCII protocol test ({@code -a}) against
 * node 0's server of a 3-node store, then node 1's and node 2's; each must pass on each. Without the tool the test fails, naming {@code bin/install-deps}.
 */
class MemccapableTest {
    private static final String TOOL = "memccapable";
    /** The ASCII tests of memccapable 1.1.4 (version, quit, verbosity, and each storage, retrieval and other command). */
    private static final int ASCII_TESTS = 27;

    static String tool() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            File f = new File(dir, TOOL);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length())) {
            n++;
        }
        return n;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPassEveryAsciiTestOfMemccapable() throws Exception {
        String tool = tool();
        if (tool == null) {
            fail(TOOL + " is not on PATH: install libmemcached-tools (bin/install-deps installs it with memcached)");
        }
        try (ThreeNodeMemcached m = new ThreeNodeMemcached()) {
            for (int node = 0; node < ThreeNodeMemcached.NODES; node++) {
                Process p = new ProcessBuilder(tool, "-a", "-v", "-t", "10", "-h", "127.0.0.1", "-p",
                        Integer.toString(m.port(node))).redirectErrorStream(true).start();
                String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(2, TimeUnit.MINUTES), "memccapable did not finish");
                System.out.println("memccapable -a against node " + node + ":\n" + output);
                assertEquals(0, count(output, "[FAIL]"), output);
                assertEquals(ASCII_TESTS, count(output, "[pass]"), output);
                assertTrue(output.contains("All tests passed"), output);
                assertEquals(0, p.exitValue(), output);
            }
        }
    }
}
