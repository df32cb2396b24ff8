package io.remus.bench.perftest;

import io.remus.core.sim.SimOptions;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.stats.LatencyResult;
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
}
