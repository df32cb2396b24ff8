package io.remus.tools.report;

import io.remus.bench.structure.RemusMetrics;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus bench ds --json FILE --metrics FILE} on the simulator: both files parse back with their documented keys. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DsJsonOutputTest {
    @SuppressWarnings("unchecked")
    @Test
    void shouldWriteJsonAndRemusMetricsThatParseBackWhenAYcsbRunEnds(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("ds.json");
        Path metrics = dir.resolve("metrics.txt");
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "hash-map", "--ycsb", "F",
                "--num-ops", "300", "--key-ub", "255", "--threads", "1", "--json", json.toString(), "--metrics",
                metrics.toString());
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> root = (Map<String, Object>) Json.parse(Files.readString(json));
        assertEquals(Set.of("tool", "test", "fabric", "notes", "runs"), root.keySet());
        assertEquals("ds", root.get("test"));
        List<Map<String, Object>> runs = (List<Map<String, Object>>) root.get("runs");
        assertEquals(1, runs.size());
        Map<String, Object> run = runs.getFirst();
        assertEquals("hash-map", run.get("structure"));
        assertEquals("F", run.get("ycsb"));
        assertEquals(600.0, ((Number) run.get("operations")).doubleValue());
        Map<String, Object> ops = (Map<String, Object>) run.get("ops");
        assertEquals(Set.of("lookup", "rmw"), ops.keySet(), "F reads and read-modify-writes");
        Map<String, Object> rmw = (Map<String, Object>) ops.get("rmw");
        Map<String, Object> perOp = (Map<String, Object>) rmw.get("per_op");
        assertEquals(Set.of("round_trips", "reads", "writes", "compare_and_swaps", "fetch_and_adds", "bytes_read",
                "bytes_written", "allocator_round_trips", "reclaimer_round_trips", "key_generator_round_trips"),
                perOp.keySet());
        assertTrue(((Number) perOp.get("round_trips")).doubleValue() >= 4, "a get and a put: " + perOp);
        assertEquals(0.0, ((Number) perOp.get("key_generator_round_trips")).doubleValue(), "only D generates keys");
        Map<String, Object> latency = (Map<String, Object>) rmw.get("latency_ns");
        assertEquals(Set.of("p50", "p90", "p99", "p999", "max", "mean"), latency.keySet());
        double lookups = ((Number) ((Map<String, Object>) ops.get("lookup")).get("count")).doubleValue();
        double rmws = ((Number) rmw.get("count")).doubleValue();
        assertEquals(600.0, lookups + rmws);

        Map<String, Long> m = RemusMetrics.parse(new StringReader(Files.readString(metrics)));
        assertEquals(RemusMetrics.KEYS, List.copyOf(m.keySet()));
        assertEquals(600, m.get("op_count"));
        assertEquals(600, m.get("get_t") + m.get("get_f"), "lookups and the gets of read-modify-writes");
        assertEquals(0, m.get("get_f"), "YCSB loads every key");
        assertTrue(m.get("read") > 0 && m.get("cas") > 0, m.toString());
        assertTrue(r.err().contains("wrote " + json) && r.err().contains("wrote " + metrics), r.err());
    }
}
