package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.SimFabrics;
import io.remus.bench.engines.SimTime;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link LockRunner}'s note on a run that ended with a convoy ({@link LockRunner#convoyNote}): from the count of
 * workers inside one key's pairs that {@link LockBenchmark} takes when the measured phase ends.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockRunnerConvoyNoteTest {
    private static LockBenchmarkConfig config(int nodes, int threads, int keys) {
        return new LockBenchmarkConfig(LockKind.SPIN, nodes, threads, 0.9, keys, 5, 20, Duration.ofMillis(1), 1);
    }

    private static LockBenchmarkResult result(int busiest, long key) {
        return new LockBenchmarkResult(LockKind.SPIN, 100, 90, 1_000_000, new long[64], busiest, key);
    }

    /** Eight workers on one node contend for its one key: all eight are inside its pairs when the run ends. */
    @Test
    void shouldNoteAConvoyWhenEveryWorkerWaitsOnOneKey() throws Exception {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, 1);
        List<String> notes = new ArrayList<>();
        LockRunner.runAll("sim",
                () -> SimFabrics.connectx5(time),
                List.of(config(1, 8, 1)), 0, notes, run -> { }, time);
        assertEquals(List.of("convoy: spin, 1 nodes x 8 threads, p_local 0.9, 1 keys: when the run ended, 8 of its 8"
                + " workers were inside lock/unlock pairs of key 0; its figures depend on the run's length"), notes);
    }

    @Test
    void shouldNoteOnlyAtLeastEightWorkersAndAtLeastHalfOnOneKey() {
        assertNull(LockRunner.convoyNote(config(10, 4, 20), result(7, 9)), "7 of 40");
        assertNull(LockRunner.convoyNote(config(10, 4, 20), result(19, 9)), "19 of 40");
        assertEquals("convoy: spin, 10 nodes x 4 threads, p_local 0.9, 20 keys: when the run ended, 20 of its 40"
                        + " workers were inside lock/unlock pairs of key 9; its figures depend on the run's length",
                LockRunner.convoyNote(config(10, 4, 20), result(20, 9)));
        assertNull(LockRunner.convoyNote(config(2, 2, 20), result(4, 0)), "4 of 4: fewer than 8");
        assertNull(LockRunner.convoyNote(config(2, 2, 20), new LockBenchmarkResult(LockKind.SPIN, 1, 1, 1, new long[64])),
                "not recorded");
    }
}
