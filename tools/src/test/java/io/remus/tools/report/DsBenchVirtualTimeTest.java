package io.remus.tools.report;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench ds --sim-time virtual}: refused, naming the value, where virtual time cannot run; the same seed
 * prints the same JSON apart from the host's load, another seed other counts; the outputs name the clock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DsBenchVirtualTimeTest {
    private static List<String> virtualArgs(String... more) {
        List<String> args = new ArrayList<>(List.of("bench", "ds", "--sim-time", "virtual", "--sim-cost", "connectx5",
                "--fabric", "sim", "--structure", "hash-map", "--ycsb", "a", "--zipf", "0.99", "--key-ub", "255",
                "--nodes", "2", "--threads", "2", "--num-ops", "100", "--segment-mib", "4"));
        args.addAll(List.of(more));
        return args;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> virtualJson(Path dir, long seed) throws IOException {
        Path file = dir.resolve("ds-" + seed + "-" + System.nanoTime() + ".json");
        RemusRun r = RemusRun.of(virtualArgs("--seed", String.valueOf(seed), "--json", file.toString())
                .toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> json = (Map<String, Object>) Json.parse(Files.readString(file));
        List<String> notes = ((List<String>) json.get("notes")).stream().filter(n -> !n.startsWith("host: ")).toList();
        Map<String, Object> withoutHost = new TreeMap<>(json);
        withoutHost.put("notes", notes);
        return withoutHost;
    }

    @SuppressWarnings("unchecked")
    private static Object firstRun(Map<String, Object> json) {
        return ((List<Object>) json.get("runs")).getFirst();
    }

    @Test
    void shouldPrintTheSameJsonFromTheSameSeedAndLabelItAndOtherCountsFromAnotherSeed(@TempDir Path dir)
            throws IOException {
        Map<String, Object> first = virtualJson(dir, 3);
        assertEquals(first, virtualJson(dir, 3), "same seed, same report apart from the host's load");
        String time = (String) first.get("time");
        assertTrue(time.startsWith("virtual time, model connectx5, CPU charged as model: ") && time.endsWith(", seed 3"),
                time);
        assertNotEquals(firstRun(first), firstRun(virtualJson(dir, 4)));
    }

    @Test
    void shouldSayVirtualTimeAboveTheTable() {
        RemusRun r = RemusRun.of(virtualArgs("--seed", "5").toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, CPU charged as model: "),
                r.out());
        assertTrue(r.out().contains(", seed 5"), r.out());
        assertTrue(r.out().contains("in usec of virtual time"), r.out());
    }

    @Test
    void shouldPrintNoClockOnTheHostsClock() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--nodes", "2", "--threads", "1", "--num-ops", "20",
                "--key-ub", "63", "--segment-mib", "4");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("virtual time"), r.out());
    }

    @Test
    void shouldRefuseAnUnknownClockNamingTheValue() {
        RemusRun r = RemusRun.of("bench", "ds", "--sim-time", "bogus", "--fabric", "sim");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time") && r.err().contains("'bogus'"), r.err());
        assertFalse(r.err().contains("Unknown option"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeOnVerbsNamingTheValueBeforeTheRun() {
        RemusRun r = RemusRun.of("bench", "ds", "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "verbs",
                "-d", "no_such_dev0", "--num-ops", "10");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("verbs"), r.err());
        assertTrue(r.err().contains("Usage: remus bench ds"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeWithAFreeCostModelNamingIt() {
        RemusRun r = RemusRun.of("bench", "ds", "--sim-time", "virtual", "--fabric", "sim", "--num-ops", "10");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("model none"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeWithRemusMetricsBeforeTheRun(@TempDir Path dir) {
        Path metrics = dir.resolve("metrics.txt");
        RemusRun r = RemusRun.of(virtualArgs("--metrics", metrics.toString()).toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("--metrics"), r.err());
        assertTrue(Files.notExists(metrics));
    }
}
