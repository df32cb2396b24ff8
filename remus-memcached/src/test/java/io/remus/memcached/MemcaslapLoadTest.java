package io.remus.memcached;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's {@code memcaslap} (libmemcached-tools' memaslap) loads a 3-node store through all three nodes' servers
 * at once ({@code -s} lists every port; {@code -T 3} gives each port its own load thread), with a fixed value size
 * under the store's limit, and verifies what it reads back ({@code -v 1}). The run must end with no error line, no
 * miss and no failed verification, and the servers' own {@code stats}, summed over the three, must count exactly the
 * gets, hits and sets the tool sent. A second, small run with values one byte over the limit shows that the server's
 * refusals reach the tool's report: one {@code SERVER_ERROR} line per set, which the first run's checks would see. Without the tool the test fails, naming {@code bin/install-deps}.
 *
 * <p>{@code memcslap} (libmemcached's memslap) is not used: it draws every value's size from 50 to 5000 bytes and
 * stops a thread at its first refused set, so about a quarter of its sets exceed this store's 3822-byte limit.
 */
class MemcaslapLoadTest {
    private static final String TOOL = "memcaslap";
    /** Operations in the bounded run: a multiple of the concurrency, so that every connection runs the same number. */
    private static final int OPERATIONS = 12_000;
    private static final int CONCURRENCY = 12;
    /** Well under the store's limit of 3822 bytes, and memaslap's own default size. */
    private static final int VALUE_BYTES = 1024;
    /** Sets in the run over the limit: memaslap gets only what it stored, so every operation is a refused set. */
    private static final int REFUSED_OPERATIONS = 1200;
    private static final Pattern COUNTER = Pattern.compile("^(\\w+): (\\d+)$", Pattern.MULTILINE);
    private static final Pattern STAT = Pattern.compile("^STAT (\\w+) (\\d+)$");

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

    /** Runs the tool to its end and returns its standard output and error together. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(1, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail(TOOL + " did not finish within a minute:\n" + output);
        }
        assertEquals(0, p.exitValue(), output);
        return output;
    }

    private static List<String> command(String tool, ThreeNodeMemcached m, int operations, int valueBytes) {
        List<String> servers = new ArrayList<>();
        for (int node = 0; node < ThreeNodeMemcached.NODES; node++) {
            servers.add("127.0.0.1:" + m.port(node));
        }
        return List.of(tool, "--servers=" + String.join(",", servers), "--threads=" + ThreeNodeMemcached.NODES,
                "--concurrency=" + CONCURRENCY, "--execute_number=" + operations,
                "--fixed_size=" + valueBytes, "--verify=1");
    }

    /** {@return the "name: count" lines the tool prints at its end} */
    private static Map<String, Long> toolCounters(String output) {
        Map<String, Long> counters = new HashMap<>();
        Matcher matcher = COUNTER.matcher(output);
        while (matcher.find()) {
            counters.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        for (String name : List.of("cmd_get", "cmd_set", "get_misses", "verify_misses", "verify_failed")) {
            assertTrue(counters.containsKey(name), "no " + name + " in the tool's output:\n" + output);
        }
        return counters;
    }

    /** {@return the numeric stats of every node's server, summed} */
    private static Map<String, Long> serverStats(ThreeNodeMemcached m) throws IOException {
        Map<String, Long> sum = new HashMap<>();
        for (int node = 0; node < ThreeNodeMemcached.NODES; node++) {
            try (TextClient c = new TextClient(m.port(node))) {
                c.send("stats\r\n");
                for (String line = c.line(); !"END".equals(line); line = c.line()) {
                    assertTrue(line != null, "stats ended early on node " + node);
                    Matcher matcher = STAT.matcher(line);
                    if (matcher.matches()) {
                        sum.merge(matcher.group(1), Long.parseLong(matcher.group(2)), Long::sum);
                    }
                }
            }
        }
        return sum;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeABoundedLoadThroughEveryPortWithoutErrorsAndCountEveryOperation() throws Exception {
        String tool = tool();
        if (tool == null) {
            fail(TOOL + " is not on PATH: install libmemcached-tools (bin/install-deps installs it with memcached)");
        }
        try (ThreeNodeMemcached m = new ThreeNodeMemcached()) {
            String output = run(command(tool, m, OPERATIONS, VALUE_BYTES));
            System.out.println(TOOL + " against 3 nodes:\n" + output);
            assertFalse(output.contains("ERROR"), output);
            assertFalse(output.contains("disconnect"), output);
            assertFalse(output.contains("reconnect"), output);
            Map<String, Long> counted = toolCounters(output);
            assertEquals(OPERATIONS, counted.get("cmd_get") + counted.get("cmd_set"), output);
            assertTrue(counted.get("cmd_set") > 0 && counted.get("cmd_get") > counted.get("cmd_set"), output);
            assertEquals(0, counted.get("get_misses"), output);
            assertEquals(0, counted.get("verify_misses"), output);
            assertEquals(0, counted.get("verify_failed"), output);

            Map<String, Long> servers = serverStats(m);
            assertEquals(counted.get("cmd_get"), servers.get("cmd_get"), servers.toString());
            assertEquals(counted.get("cmd_get"), servers.get("get_hits"), servers.toString());
            assertEquals(0, servers.get("get_misses"), servers.toString());
            assertEquals(counted.get("cmd_set"), servers.get("cmd_set"), servers.toString());
            assertEquals(CONCURRENCY + ThreeNodeMemcached.NODES, servers.get("total_connections"), servers.toString());
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldSeeTheRefusalsOfValuesOverTheLimitInTheToolsReport() throws Exception {
        String tool = tool();
        if (tool == null) {
            fail(TOOL + " is not on PATH: install libmemcached-tools (bin/install-deps installs it with memcached)");
        }
        try (ThreeNodeMemcached m = new ThreeNodeMemcached()) {
            int limit = m.cache.maxItemBytes();
            assertEquals(3822, limit);
            String output = run(command(tool, m, REFUSED_OPERATIONS, limit + 1));
            Map<String, Long> counted = toolCounters(output);
            assertEquals(REFUSED_OPERATIONS, counted.get("cmd_set"), output);
            assertEquals(0, counted.get("cmd_get"), output);
            assertEquals(REFUSED_OPERATIONS, count(output, "SERVER_ERROR object too large for cache"), output);
            Map<String, Long> servers = serverStats(m);
            assertEquals(0, servers.get("cmd_get"), servers.toString());
        }
    }
}
