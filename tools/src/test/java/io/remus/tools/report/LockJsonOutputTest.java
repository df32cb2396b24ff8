package io.remus.tools.report;

import io.remus.bench.lock.LockReport;
import io.remus.alock.kind.LockKind;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.tools.lock.LockFormat;
import io.remus.bench.lock.LockRun;
import io.remus.bench.stats.LatencySummary;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class LockJsonOutputTest {
    private static LockRun run(LockKind kind, double pLocal, long operations) {
        LockBenchmarkConfig c = new LockBenchmarkConfig(kind, 2, 2, pLocal, 16, 8, 8, Duration.ofSeconds(1), 1);
        LatencySummary l = new LatencySummary(operations, 100, 9000, 500, 600.5, 50, 700, 900, 1000, 2000);
        return new LockRun("sim", c, operations, operations / 2, 2.0, l);
    }

    @SuppressWarnings("unchecked")
    @Test
    void shouldWriteRunsAndSpeedupsWithTheDocumentedKeysWhenReportIsWritten() {
        LockReport report = new LockReport("sim", List.of("a \"quoted\" note"), List.of(run(LockKind.ALOCK, 0.9, 1000),
                run(LockKind.SPIN, 0.9, 100), run(LockKind.MCS, 0.9, 250), run(LockKind.ALOCK, 1.0, 10)));
        StringWriter text = new StringWriter();
        LockFormat.writeJson(report, new PrintWriter(text));
        Map<String, Object> json = (Map<String, Object>) Json.parse(text.toString());
        assertEquals(Set.of("tool", "test", "fabric", "unit", "notes", "runs", "speedups"), json.keySet());
        assertEquals("lock", json.get("test"));
        assertEquals(List.of("a \"quoted\" note"), json.get("notes"));
        List<Map<String, Object>> runs = (List<Map<String, Object>>) json.get("runs");
        assertEquals(4, runs.size());
        assertEquals(Set.of("lock", "nodes", "threads_per_node", "p_local", "keys", "local_budget", "remote_budget",
                "seconds", "operations", "local_operations", "ops_per_sec", "latency"), runs.get(0).keySet());
        assertEquals(500.0, runs.get(0).get("ops_per_sec"));
        Map<String, Object> latency = (Map<String, Object>) runs.get(0).get("latency");
        assertEquals(Set.of("count", "min", "median", "mean", "stddev", "p90", "p99", "p99_9", "p99_99", "max"), latency.keySet());
        assertEquals(0.5, latency.get("median"));
        List<Map<String, Object>> speedups = (List<Map<String, Object>>) json.get("speedups");
        assertEquals(2, speedups.size());
        assertEquals(10.0, speedups.get(0).get("vs_spin"));
        assertEquals(4.0, speedups.get(0).get("vs_mcs"));
        assertEquals(1.0, speedups.get(1).get("p_local"));
        assertNull(speedups.get(1).get("vs_spin"));
    }
}
