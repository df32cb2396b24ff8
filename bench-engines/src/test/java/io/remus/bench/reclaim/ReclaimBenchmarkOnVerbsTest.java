package io.remus.bench.reclaim;

import io.remus.bench.churn.ChurnWorkload;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReclaimBenchmark} on the verbs fabric (three nodes in this process on {@code REMUS_TEST_DEVICE}):
 * each reclaimer reads no freed memory, never-free keeps what it retired, the epoch reclaimer stays
 * under its bound with a stalled thread, and the barrier frees every round. Prints each run's
 * figures, for the record (the guest is emulated: no timing is asserted).
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class ReclaimBenchmarkOnVerbsTest {
    private static ReclaimBenchmarkResult run(ReclaimBenchmarkConfig config) throws InterruptedException {
        try (VerbsFabric fabric = VerbsFabric.open(DeviceTests.deviceName())) {
            ReclaimBenchmarkResult r = ReclaimBenchmark.run(fabric, config);
            System.out.printf("reclaim bench on verbs: %s%s ops=%d ops/s=%.0f retired=%d peak=%d final=%d bound=%d "
                            + "rdma/op=%.2f violations=%d%n", config.reclaimer().flagName(), config.stall() ? "+stall" : "",
                    r.ops(), r.opsPerSecond(), r.retiredBytes(), r.peakUnreclaimedBytes(), r.finalUnreclaimedBytes(),
                    config.unreclaimedBound(), r.postedPerOp(), r.violations());
            assertEquals(0, r.violations(), r.firstViolation());
            assertTrue(r.ops() > 0);
            return r;
        }
    }

    private static ReclaimBenchmarkConfig config(ReclaimerKind kind) {
        return new ReclaimBenchmarkConfig(kind, 3, 2, null, 1500, false, 32, 50,
                ReclaimBenchmarkConfig.benchEpochOptions().withBytes(1024, 4096).withLease(Duration.ofMillis(500))
                        .withLimitWait(Duration.ofSeconds(30)),
                250, Duration.ofMillis(50), 4L << 20, 3);
    }

    @DeviceTest
    void shouldKeepEveryRetiredByteWithNeverFree() throws InterruptedException {
        ReclaimBenchmarkResult r = run(config(ReclaimerKind.NEVER));
        assertEquals(r.retiredBytes(), r.finalUnreclaimedBytes());
    }

    @DeviceTest
    void shouldFreeAtEveryBarrierRound() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.BARRIER);
        ReclaimBenchmarkResult r = run(c);
        assertTrue(r.peakUnreclaimedBytes() <= (long) c.workers() * c.barrierEvery() * ChurnWorkload.NODE_BYTES,
                "peak " + r.peakUnreclaimedBytes());
    }

    @DeviceTest
    void shouldStayUnderTheBoundWithEpochsAndAStalledThread() throws InterruptedException {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.EPOCH).withStall(true);
        ReclaimBenchmarkResult r = run(c);
        assertEquals(0, r.limitTimeouts());
        assertTrue(r.peakUnreclaimedBytes() <= c.unreclaimedBound(), "peak " + r.peakUnreclaimedBytes()
                + ", bound " + c.unreclaimedBound());
        assertTrue(r.retiredBytes() > 5 * c.unreclaimedBound(), "retired " + r.retiredBytes());
    }
}
