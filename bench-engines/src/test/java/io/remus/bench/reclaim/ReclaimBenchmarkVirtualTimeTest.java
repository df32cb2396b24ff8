package io.remus.bench.reclaim;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReclaimBenchmark} in virtual time ({@link SimTime#virtual}): 2 nodes x 2 churn workers with each reclaimer
 * for an operation count, and the barrier and epoch reclaimers for 20 ms of virtual time with a thread stalled in a
 * guard. The same seed gives the same counts, bytes, RDMA operations, samples and virtual elapsed times; another
 * seed runs as well; the same runs on host threads keep their wall clock.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReclaimBenchmarkVirtualTimeTest {
    private static final Duration STALLED_RUN = Duration.ofMillis(20);

    private static ReclaimBenchmarkConfig config(ReclaimerKind kind, Duration duration, long ops, boolean stall) {
        return new ReclaimBenchmarkConfig(kind, 2, 2, duration, ops, stall, 16, 50,
                ReclaimBenchmarkConfig.benchEpochOptions(), 50, Duration.ofMillis(1), 16L << 20, 7);
    }

    private static List<ReclaimBenchmarkConfig> configs() {
        return List.of(
                config(ReclaimerKind.NEVER, null, 150, false),
                config(ReclaimerKind.BARRIER, null, 150, false),
                config(ReclaimerKind.EPOCH, null, 150, false),
                config(ReclaimerKind.BARRIER, STALLED_RUN, 0, true),
                config(ReclaimerKind.EPOCH, STALLED_RUN, 0, true));
    }

    /**
     * @param schedulerSeed the virtual-time scheduler's seed (the workers' choices keep seed 7)
     * @return per run: its reclaimer, counts, bytes, RDMA counts, virtual elapsed nanoseconds and samples
     */
    private static List<String> fingerprints(long schedulerSeed) throws InterruptedException {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, schedulerSeed);
        List<ReclaimBenchmarkResult> runs = ReclaimBenchmark.run(() -> SimFabrics.connectx5(time), configs(), Duration.ofMillis(10), time);
        List<String> prints = new ArrayList<>();
        for (ReclaimBenchmarkResult r : runs) {
            ReclaimBenchmarkConfig c = r.config();
            String what = ReclaimReport.label(r);
            assertEquals(0, r.violations(), what + ": no read found freed memory: " + r.firstViolation());
            if (c.duration() == null) {
                assertEquals(c.workers() * c.opsPerThread(), r.ops(), what + ": every worker ran its count");
            } else {
                assertTrue(r.elapsedNanos() >= c.duration().toNanos(), what + ": ran " + r.elapsedNanos() + " ns");
            }
            assertTrue(r.ops() > 0 && r.retiredBytes() > 0, what + ": churn that retired memory");
            prints.add(what + " ops " + r.ops() + " reads " + r.reads() + " replaces " + r.replaces() + " restarts "
                    + r.restarts() + " retired " + r.retiredBytes() + " peak " + r.peakUnreclaimedBytes() + " final "
                    + r.finalUnreclaimedBytes() + " posted " + Arrays.toString(r.postedOperations()) + " elapsed "
                    + r.elapsedNanos() + " samples " + r.samples());
        }
        return prints;
    }

    @Test
    void shouldGiveTheSameCountsSamplesAndVirtualTimesFromTheSameSeed() throws InterruptedException {
        assertEquals(fingerprints(3), fingerprints(3));
    }

    @Test
    void shouldRunUnderAnotherSchedulerSeed() throws InterruptedException {
        assertEquals(configs().size(), fingerprints(4).size());
    }

    @Test
    void shouldKeepTheWallClockOnHostThreads() throws InterruptedException {
        ReclaimBenchmarkConfig epoch = config(ReclaimerKind.EPOCH, Duration.ofMillis(100), 0, true);
        long before = System.nanoTime();
        List<ReclaimBenchmarkResult> runs = ReclaimBenchmark.run(() -> SimFabrics.connectx5(SimTime.HOST), List.of(epoch), null,
                SimTime.HOST);
        long wall = System.nanoTime() - before;
        ReclaimBenchmarkResult r = runs.getFirst();
        assertTrue(r.ops() > 0 && r.violations() == 0, "churn on host threads");
        assertTrue(r.elapsedNanos() >= epoch.duration().toNanos() && r.elapsedNanos() <= wall,
                "elapsed " + r.elapsedNanos() + " ns of the wall clock, within the call's " + wall);
    }
}
