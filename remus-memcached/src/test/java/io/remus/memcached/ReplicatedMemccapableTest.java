package io.remus.memcached;

import io.remus.core.sim.SimOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's {@code memccapable -a} (every ASCII protocol test) against a {@link MemcachedServer} on each of three
 * nodes, each server's engine a {@link ReplicatedCacheEngine} over one shard replicated on the three nodes (the
 * simulated fabric in real time). Without the tool the test fails, naming {@code bin/install-deps}.
 */
class ReplicatedMemccapableTest {
    /** The ASCII tests of memccapable 1.1.4. */
    private static final int ASCII_TESTS = 27;

    private static int count(String text, String word) {
        int n = 0;
        for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length())) {
            n++;
        }
        return n;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPassEveryAsciiTestOfMemccapableOnEachNode() throws Exception {
        String tool = MemccapableTest.tool();
        if (tool == null) {
            fail("memccapable is not on PATH: install libmemcached-tools (bin/install-deps installs it with memcached)");
        }
        AtomicLong clients = new AtomicLong();
        List<MemcachedServer> servers = new ArrayList<>();
        try (ReplicatedStore store = new ReplicatedStore(SimOptions.defaults(), 100_000,
                () -> System.currentTimeMillis() / 1000)) {
            store.start();
            try {
                for (int n = 0; n < 3; n++) {
                    servers.add(MemcachedServer.start(ServerConfig.of("127.0.0.1", 0),
                            () -> store.engine(clients.incrementAndGet()), () -> System.currentTimeMillis() / 1000));
                }
                for (int node = 0; node < 3; node++) {
                    Process p = new ProcessBuilder(tool, "-a", "-v", "-t", "10", "-h", "127.0.0.1", "-p",
                            Integer.toString(servers.get(node).port())).redirectErrorStream(true).start();
                    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "memccapable did not finish");
                    assertEquals(0, count(output, "[FAIL]"), output);
                    assertEquals(ASCII_TESTS, count(output, "[pass]"), output);
                    assertTrue(output.contains("All tests passed"), output);
                    assertEquals(0, p.exitValue(), output);
                }
            } finally {
                for (MemcachedServer s : servers) {
                    s.close();
                }
                store.stopAll();
            }
        }
    }
}
