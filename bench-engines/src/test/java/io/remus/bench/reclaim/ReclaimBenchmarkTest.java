package io.remus.bench.reclaim;

import io.remus.bench.churn.ChurnWorkload;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.reclaim.EpochOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReclaimBenchmark} on a poisoning simulated cluster: its counts agree with each other, every
 * reclaimer reads no freed memory, never-free keeps everything, the epoch reclaimer stays under its
 * documented bound with and without a stalled thread, and a stalled thread stops the barrier.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReclaimBenchmarkTest {
    private static final int OPS = 4000;
    private static final EpochOptions SMALL = ReclaimBenchmarkConfig.benchEpochOptions().withBytes(1024, 4096);

    private static ReclaimBenchmarkConfig config(ReclaimerKind kind, boolean stall, Duration duration) {
        return new ReclaimBenchmarkConfig(kind, 2, 2, duration, duration == null ? OPS : 0, stall, 32, 50, SMALL,
                500, Duration.ofMillis(10), 16L << 20, 7);
    }

    private static ReclaimBenchmarkResult run(ReclaimBenchmarkConfig config) throws InterruptedException {
        try (SimFabric fabric = new SimFabric(SimOptions.defaults().withPoisonFreedBlocks(true))) {
            return ReclaimBenchmark.run(fabric, config);
        }
    }

    private static void assertConsistent(ReclaimBenchmarkResult r) {
        assertTrue(r.ops() > 0, "operations ran");
        assertEquals(0, r.violations(), r.firstViolation());
        assertEquals(r.replaces() * ChurnWorkload.NODE_BYTES, r.retiredBytes(), "every replace retired one node");
        assertTrue(r.reads() + r.restarts() + r.replaces() <= r.ops(), "no operation counted twice");
        assertTrue(r.opsPerSecond() > 0);
        assertTrue(r.peakUnreclaimedBytes() >= r.finalUnreclaimedBytes());
        assertTrue(r.samples().size() >= 2, "sampled at the start and at the end");
        assertTrue(r.postedPerOp(Opcode.COMPARE_AND_SWAP) > 0, "replaces swap remote slots: " + r.postedPerOp(Opcode.COMPARE_AND_SWAP));
        assertTrue(r.postedPerOp() >= r.postedPerOp(Opcode.READ));
    }

    @Test
    void shouldWarmUpThenRunEveryConfigurationOnAFreshFabricWhenGivenSeveral() throws InterruptedException {
        List<ReclaimBenchmarkConfig> configs = List.of(config(ReclaimerKind.NEVER, false, null),
                config(ReclaimerKind.BARRIER, false, null));
        int[] fabrics = {0};
        List<ReclaimBenchmarkResult> runs = ReclaimBenchmark.run(() -> {
            fabrics[0]++;
            return new SimFabric(SimOptions.defaults().withPoisonFreedBlocks(true));
        }, configs, Duration.ofMillis(20));
        assertEquals(configs, runs.stream().map(ReclaimBenchmarkResult::config).toList());
        assertEquals(ReclaimBenchmarkConfig.warmUps(configs, Duration.ofMillis(20)).size() + 2, fabrics[0],
                "a fresh fabric per warm-up and per measured run");
        runs.forEach(ReclaimBenchmarkTest::assertConsistent);
        assertEquals(2, ReclaimBenchmark.run(() -> new SimFabric(SimOptions.defaults()), configs, null).size());
    }

    @Test
    void shouldKeepEveryRetiredByteWithNeverFree() throws InterruptedException {
        ReclaimBenchmarkResult r = run(config(ReclaimerKind.NEVER, false, null));
        assertConsistent(r);
        assertEquals(4L * OPS, r.ops());
        assertEquals(r.retiredBytes(), r.finalUnreclaimedBytes());
        assertEquals(r.retiredBytes(), r.peakUnreclaimedBytes());
        assertTrue(r.retiredBytes() > 0);
    }

    @Test
    void shouldStayUnderTheDocumentedBoundWithEpochs() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.EPOCH, false, null);
        ReclaimBenchmarkResult r = run(c);
        assertConsistent(r);
        assertEquals(4L * OPS, r.ops());
        assertEquals(0, r.limitTimeouts());
        assertEquals(4 * (4096 + ChurnWorkload.NODE_BYTES), c.unreclaimedBound());
        assertTrue(r.peakUnreclaimedBytes() <= c.unreclaimedBound(), "peak " + r.peakUnreclaimedBytes());
        assertTrue(r.retiredBytes() > 5 * c.unreclaimedBound(), "the run retired far more than the bound: " + r.retiredBytes());
    }

    @Test
    void shouldStayBoundedWithEpochsAndAStalledThreadOnceItsLeaseRanOut() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.EPOCH, true, Duration.ofMillis(1500));
        ReclaimBenchmarkResult r = run(c);
        assertConsistent(r);
        assertEquals(0, r.limitTimeouts());
        assertTrue(r.peakUnreclaimedBytes() <= c.unreclaimedBound(), "peak " + r.peakUnreclaimedBytes());
        assertTrue(r.retiredBytes() > 5 * c.unreclaimedBound(), "retired " + r.retiredBytes());
    }

    @Test
    void shouldFreeAtEveryBarrierRound() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.BARRIER, false, null);
        ReclaimBenchmarkResult r = run(c);
        assertConsistent(r);
        assertEquals(4L * OPS, r.ops());
        long perRound = (long) c.workers() * c.barrierEvery() * ChurnWorkload.NODE_BYTES;
        assertTrue(r.peakUnreclaimedBytes() <= perRound, "at most one round's retires: " + r.peakUnreclaimedBytes());
        assertTrue(r.retiredBytes() > perRound, "more than one round retired: " + r.retiredBytes());
    }

    @Test
    void shouldStopEveryWorkerAtTheBarrierWhileAThreadStalls() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.BARRIER, true, Duration.ofMillis(800));
        ReclaimBenchmarkResult r = run(c);
        assertEquals(0, r.violations(), r.firstViolation());
        assertTrue(r.ops() <= (long) c.workers() * c.barrierEvery(),
                "no worker got past its first barrier round: " + r.ops());
        assertTrue(r.elapsedNanos() >= Duration.ofMillis(800).toNanos(), "they waited until the run's time was up");
    }

    @Test
    void shouldRejectBadConfigurationsNamingTheValue() {
        EpochOptions e = ReclaimBenchmarkConfig.benchEpochOptions();
        Duration d = Duration.ofSeconds(1);
        Duration s = Duration.ofMillis(10);
        assertMessage("nodes must be 1..64, got 0",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 0, 1, d, 0, false, 8, 50, e, 10, s, 1 << 20, 1));
        assertMessage("threadsPerNode must be 1..32, got 33",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 33, d, 0, false, 8, 50, e, 10, s, 1 << 20, 1));
        assertMessage("not both",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 1, d, 5, false, 8, 50, e, 10, s, 1 << 20, 1));
        assertMessage("opsPerThread must be at least 1 without a duration, got 0",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 1, null, 0, false, 8, 50, e, 10, s, 1 << 20, 1));
        assertMessage("readPercent must be 0..100, got 101",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 1, d, 0, false, 8, 101, e, 10, s, 1 << 20, 1));
        assertMessage("slots must be 1..4096, got 0",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 1, d, 0, false, 0, 50, e, 10, s, 1 << 20, 1));
        assertMessage("segmentBytes must be",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.EPOCH, 1, 1, d, 0, false, 8, 50, e, 10, s, 1000, 1));
        assertMessage("needs a duration",
                () -> new ReclaimBenchmarkConfig(ReclaimerKind.BARRIER, 1, 1, null, 10, true, 8, 50, e, 10, s, 1 << 20, 1));
        assertFalse(ReclaimBenchmarkConfig.of(ReclaimerKind.NEVER, 1, 1, d, false).unreclaimedBound() >= 0,
                "only epochs have a bound");
        assertEquals(ReclaimerKind.BARRIER, ReclaimerKind.parse("Barrier"));
        assertMessage("unknown reclaimer 'hazard'", () -> ReclaimerKind.parse("hazard"));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
        BadArgumentException x = assertThrows(BadArgumentException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }
}
