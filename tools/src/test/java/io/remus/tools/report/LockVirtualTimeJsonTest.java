package io.remus.tools.report;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench lock --sim-time virtual --json}: the same seed prints the same report apart from the host's
 * load, another seed other counts, and the report names its clock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockVirtualTimeJsonTest {
    /** One virtual-time invocation: every lock kind, 2 nodes x 2 threads, 2 ms of virtual time. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> virtualRun(long seed) {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "sim",
                "--lock", "alock,spin,mcs", "--nodes", "2", "--threads", "2", "--p-local", "0.9", "--keys", "20",
                "--local-budget", "5", "--remote-budget", "20", "-D", "0.002", "--seed", String.valueOf(seed), "--json");
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> json = (Map<String, Object>) Json.parse(r.out());
        List<String> notes = ((List<String>) json.get("notes")).stream().filter(n -> !n.startsWith("host: ")).toList();
        Map<String, Object> withoutHost = new TreeMap<>(json);
        withoutHost.put("notes", notes);
        return withoutHost;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> operations(Map<String, Object> json) {
        return ((List<Map<String, Object>>) json.get("runs")).stream().map(run -> run.get("operations")).toList();
    }

    @Test
    void shouldPrintTheSameJsonFromTheSameSeedInVirtualTimeAndLabelIt() {
        Map<String, Object> first = virtualRun(3);
        Map<String, Object> second = virtualRun(3);
        assertEquals(first, second, "same seed, same report apart from the host's load");
        assertEquals(3, operations(first).size());
        String time = (String) first.get("time");
        assertTrue(time.startsWith("virtual time, model connectx5, CPU charged as model: ") && time.endsWith(", seed 3"),
                time);
    }

    @Test
    void shouldCountOtherwiseFromAnotherSeedInVirtualTime() {
        assertNotEquals(operations(virtualRun(3)), operations(virtualRun(4)));
    }
}
