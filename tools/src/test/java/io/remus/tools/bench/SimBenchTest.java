package io.remus.tools.bench;

import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.tools.RemusRun;
import io.remus.tools.bench.sim.SimBenchTransport;
import io.remus.tools.stats.LatencyResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimBenchTest {
    private static ProgressLine quiet() {
        return new ProgressLine(new PrintWriter(new StringWriter()), false);
    }

    @Test
    void shouldRecordEveryMeasuredIterationWhenWriteLatencyPingPongs() {
        BenchSettings s = new BenchSettings(BenchTest.WRITE_LAT, List.of(2, 64), 500, 50, null, null, 1, 1, 16,
                1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 1)) {
            List<LatencyResult> results = new BenchRunner(t, s, quiet(), null).latency();
            assertEquals(2, results.size());
            assertEquals(500, results.get(0).summary().count());
            assertEquals(64, results.get(1).bytes());
            assertEquals(500, results.get(1).summary().count());
        }
    }

    @Test
    void shouldAddOncePerIterationWhenFetchAndAddLatencyRuns() {
        BenchSettings s = new BenchSettings(BenchTest.ATOMIC_LAT, List.of(8), 300, 20, null, null, 1, 1, 16,
                1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 1)) {
            new BenchRunner(t, s, quiet(), null).latency();
            try (BenchConnection server = t.inProcessServer()) {
                assertEquals(320, server.buffer().get(ValueLayout.JAVA_LONG, 0));
            }
        }
    }

    @Test
    void shouldMarkTheMeasuredIterationsWhenALatencyTestRunsWithWindowMarks() {
        BenchSettings s = new BenchSettings(BenchTest.ATOMIC_LAT, List.of(8), 300, 20, null, null, 1, 1, 16,
                1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 1);
             BenchConnection server = t.inProcessServer()) {
            List<Long> added = new ArrayList<>();
            WindowMarks.use(line -> added.add(server.buffer().get(ValueLayout.JAVA_LONG, 0)));
            new BenchRunner(t, s, quiet(), null).latency();
            assertEquals(2, added.size(), "one begin and one end");
            assertEquals(20L, added.get(0), "the window begins after the warm-up: " + added);
            assertEquals(300, added.get(1) - added.get(0), "the measured iterations lie between the marks");
        } finally {
            WindowMarks.use(null);
        }
    }

    @Test
    void shouldCompleteEveryIterationOfEachQueuePairWhenBandwidthRunsOnSeveralQueuePairs() {
        BenchSettings s = new BenchSettings(BenchTest.READ_BW, List.of(256), 1000, 100, null, null, 8, 3, 4,
                1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 3, 8)) {
            var result = new BenchRunner(t, s, quiet(), null).bandwidth().getFirst();
            assertEquals(3000, result.iterations());
            assertTrue(result.nanos() > 0);
        }
    }

    @Test
    void shouldPingPongWhenSimulatorInjectsLatency() {
        RemusRun run = RemusRun.of("bench", "write-lat", "--fabric", "sim", "-n", "50", "--sim-latency-ns", "20000");
        assertEquals(0, run.exit(), run.err());
        String row = run.out().lines().filter(l -> l.trim().startsWith("2 ")).findFirst().orElseThrow();
        double minUsec = Double.parseDouble(row.trim().split("\\s+")[2]);
        assertTrue(minUsec >= 10.0, row);
    }

    @Test
    void shouldTakeAtLeastTheModelledRoundTripWhenTheSimulatorHasTheConnectX5CostModel() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "50", "--sim-cost", "connectx5");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("sim cost model connectx5"), run.out());
        String row = run.out().lines().filter(l -> l.trim().startsWith("2 ")).findFirst().orElseThrow();
        double minUsec = Double.parseDouble(row.trim().split("\\s+")[2]);
        assertTrue(minUsec >= SimCostModel.CONNECTX5.readWriteRoundTripNanos() / 1000.0, row);
    }

    @Test
    void shouldExitWithUsageNamingTheModelWhenTheCostModelIsUnknown() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "5", "--sim-cost", "cx9");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("cx9") && run.err().contains("connectx5"), run.err());
    }

    @Test
    void shouldRunForTheDurationWhenDurationModeIsAsked() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-D", "1", "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("\"duration_seconds\":1.000000"), run.out());
        assertTrue(run.out().contains("\"margin_seconds\":0.250000"), run.out());
    }
}
