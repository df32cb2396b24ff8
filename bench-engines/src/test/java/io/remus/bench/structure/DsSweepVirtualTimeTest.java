package io.remus.bench.structure;

import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.SimFabrics;
import io.remus.bench.engines.SimTime;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DsSweep} in virtual time ({@link SimTime#virtual}): every structure runs 2 nodes x 2 workers for an
 * operation count, and the hash map YCSB A for 10 ms of virtual time; the same seed gives the same counts,
 * outcomes, RDMA operations and virtual figures, another scheduler seed other ones.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DsSweepVirtualTimeTest {
    private static final long WORKER_SEED = 7;

    private static List<DsBenchmarkConfig> configs() {
        List<DsBenchmarkConfig> configs = new ArrayList<>();
        for (StructureKind s : StructureKind.values()) {
            configs.add(new DsBenchmarkConfig(s, LockKind.ALOCK, 2, 2, true, null, 150, 50, 25, 25, 0, 63, 0, null,
                    16, 4L << 20, WORKER_SEED));
        }
        configs.add(new DsBenchmarkConfig(StructureKind.HASH_MAP, LockKind.ALOCK, 2, 2, true, Duration.ofMillis(10), 0,
                100, 0, 0, 0, 255, 0.99, Ycsb.A, 16, 4L << 20, WORKER_SEED));
        return configs;
    }

    /**
     * @param schedulerSeed the virtual-time scheduler's seed (the workers' key choices keep {@link #WORKER_SEED})
     * @return per run: its structure, operations, outcomes, RDMA counts, virtual elapsed nanoseconds and latencies
     */
    private static List<String> fingerprints(long schedulerSeed) throws InterruptedException {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, schedulerSeed);
        List<DsBenchmarkConfig> configs = configs();
        List<DsRun> runs = DsSweep.run(
                () -> SimFabrics.connectx5(time),
                configs, time);
        List<String> prints = new ArrayList<>();
        for (DsRun run : runs) {
            DsBenchmarkResult r = run.result();
            DsBenchmarkConfig c = r.config();
            if (c.duration() == null) {
                assertEquals(c.workers() * c.opsPerThread(), r.ops(), c.label() + ": every worker ran its count");
            } else {
                assertTrue(r.elapsedNanos() >= c.duration().toNanos(), c.label() + ": ran " + r.elapsedNanos() + " ns");
            }
            assertTrue(r.ops() > 0 && r.rdmaPerOp() > 0, c.label() + ": operations with RDMA");
            assertEquals(r.ops(), run.all().count(), c.label() + ": every operation's latency recorded");
            prints.add(c.label() + " ops " + r.ops() + " outcomes " + Arrays.toString(r.outcomes()) + " costs "
                    + Arrays.toString(r.costs()) + " prefilled " + r.prefilled() + " elapsed " + r.elapsedNanos()
                    + " latency " + run.all());
        }
        return prints;
    }

    @Test
    void shouldGiveTheSameCountsOutcomesAndRdmaPerOperationFromTheSameSeed() throws InterruptedException {
        assertEquals(fingerprints(3), fingerprints(3));
    }

    @Test
    void shouldGiveOtherFiguresFromAnotherSchedulerSeed() throws InterruptedException {
        assertNotEquals(fingerprints(3), fingerprints(4));
    }
}
