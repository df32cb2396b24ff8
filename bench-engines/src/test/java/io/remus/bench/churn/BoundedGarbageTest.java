package io.remus.bench.churn;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.config.Timeouts;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bounded garbage: over more than 10<sup>5</sup> churn operations, {@link EpochReclaimer} keeps each
 * thread's unreclaimed bytes under {@link EpochOptions#limitBytes()} at every guard close (its
 * documented bound), also with a thread frozen inside a guard for the whole run once its lease ran
 * out; plain epochs (no lease) in the same run free nothing and grow linearly with the operations.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BoundedGarbageTest {
    private static final int WORKERS = 3;
    private static final int OPS = 34_000;
    private static final long PASS = 1024;
    private static final long LIMIT = 4096;
    private static final int SEGMENT = 2 << 20;

    private final EpochOptions leased = EpochOptions.defaults().withLease(Duration.ofMillis(200)).withClockSkew(Duration.ZERO)
            .withBytes(PASS, LIMIT).withLimitWait(Duration.ofSeconds(20));

    @Test
    void shouldStayUnderTheLimitOverAHundredThousandOperations() throws InterruptedException {
        try (TestCluster c = ChurnHarness.cluster(SEGMENT)) {
            long array = ChurnHarness.array(c);
            ChurnHarness.Worker[] w = ChurnHarness.run(c, array, WORKERS, OPS, 50, 5, 0, false,
                    (t, a) -> new EpochReclaimer(t, a, leased), () -> true);
            assertTrue(ChurnHarness.total(w, ChurnHarness.Worker::ops) >= 100_000);
            assertBounded(w);
        }
    }

    @Test
    void shouldStayBoundedWithAThreadFrozenInAGuardOnceItsLeaseRanOut() throws InterruptedException {
        try (TestCluster c = ChurnHarness.cluster(SEGMENT)) {
            long array = ChurnHarness.array(c);
            Frozen frozen = Frozen.start(c, array, leased);
            ChurnHarness.Worker[] w;
            try {
                w = ChurnHarness.run(c, array, WORKERS, OPS, 50, 5, 0, false,
                        (t, a) -> new EpochReclaimer(t, a, leased), () -> true);
            } finally {
                frozen.release();
            }
            assertBounded(w);
            assertNull(frozen.failure.get());
            assertFalse(frozen.validAtEnd, "the frozen guard's lease ran out");
            assertFalse(frozen.sameIncarnationAtEnd, "the block it read was freed: revalidation by incarnation tells it");
        }
    }

    @Test
    void shouldGrowWithoutBoundWithPlainEpochsAndAFrozenThread() throws InterruptedException {
        EpochOptions plain = leased.withLease(Timeouts.FOREVER).withBytes(PASS, Long.MAX_VALUE);
        try (TestCluster c = ChurnHarness.cluster(SEGMENT)) {
            long array = ChurnHarness.array(c);
            Frozen frozen = Frozen.start(c, array, plain);
            ChurnHarness.Worker[] w;
            try {
                w = ChurnHarness.run(c, array, WORKERS, OPS, 50, 5, 0, false,
                        (t, a) -> new EpochReclaimer(t, a, plain), () -> true);
            } finally {
                frozen.release();
            }
            assertNull(frozen.failure.get());
            assertTrue(frozen.validAtEnd, "without a lease the frozen guard never runs out");
            assertTrue(frozen.sameIncarnationAtEnd, "and nothing it could read was freed");
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::violations), ChurnHarness.firstViolation(w));
            for (ChurnHarness.Worker worker : w) {
                assertEquals(worker.retiredBytes(), worker.unreclaimedAtEnd(), "nothing retired after the freeze is freed");
                assertTrue(worker.unreclaimedAtEnd() > 100 * LIMIT, "far above the leased run's limit: " + worker.unreclaimedAtEnd());
                long[] q = worker.unreclaimedAtQuarters();
                for (int k = 1; k < 4; k++) {
                    double ratio = (double) q[k] / q[0];
                    assertTrue(ratio > (k + 1) * 0.8 && ratio < (k + 1) * 1.2,
                            "unreclaimed bytes grow linearly with the operations: " + java.util.Arrays.toString(q));
                }
            }
        }
    }

    private static void assertBounded(ChurnHarness.Worker[] w) {
        assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::violations), ChurnHarness.firstViolation(w));
        assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::limitTimeouts), "no wait for the limit ran out");
        for (ChurnHarness.Worker worker : w) {
            assertTrue(worker.maxUnreclaimed() < LIMIT, "unreclaimed bytes at a guard close stay under the limit "
                    + LIMIT + ", peak " + worker.maxUnreclaimed());
            assertTrue(worker.retiredBytes() > 100 * LIMIT, "the run retired far more than the limit: " + worker.retiredBytes());
        }
    }

    /** A thread that enters a guard, reads a node, and stays inside until released. */
    private static final class Frozen {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;
        private volatile boolean validAtEnd;
        private volatile boolean sameIncarnationAtEnd;

        private Frozen(TestCluster c, long array, EpochOptions options) {
            thread = new Thread(() -> {
                try (ComputeThread t = c.thread(0)) {
                    EpochReclaimer r = new EpochReclaimer(t, new RemoteAllocator(t), options);
                    Guard g = r.enter();
                    long p = t.read(array);
                    long incarnation = g.incarnation(p);
                    entered.countDown();
                    if (!released.await(150, TimeUnit.SECONDS)) {
                        throw new AssertionError("never released");
                    }
                    validAtEnd = g.valid();
                    sameIncarnationAtEnd = g.validate(p, incarnation);
                    g.close();
                    r.close();
                } catch (Throwable e) {
                    failure.set(e);
                    entered.countDown();
                }
            }, "frozen@node0");
            thread.setDaemon(true);
        }

        static Frozen start(TestCluster c, long array, EpochOptions options) throws InterruptedException {
            Frozen f = new Frozen(c, array, options);
            f.thread.start();
            assertTrue(f.entered.await(30, TimeUnit.SECONDS), "the frozen thread entered its guard");
            return f;
        }

        void release() throws InterruptedException {
            released.countDown();
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(thread.isAlive(), "the frozen thread finished");
        }
    }
}
