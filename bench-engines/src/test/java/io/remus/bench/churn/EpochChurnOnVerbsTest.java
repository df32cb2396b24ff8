package io.remus.bench.churn;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The churn workload with {@link EpochReclaimer} on the verbs fabric: three nodes in this process
 * on the device {@code REMUS_TEST_DEVICE}, two churn threads per node on one shared array. The verbs
 * fabric poisons nothing, so a use after free shows as the workload's own check failing: a header
 * that is not the block's allocated header, an incarnation that changed while the payload was
 * read, a payload of another incarnation or slot, or a checksum that does not hold. Unreclaimed
 * bytes stay under the limit at every guard close, also with a thread frozen in a guard once its
 * lease ran out.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class EpochChurnOnVerbsTest {
    private static final int NODES = 3;
    private static final int PER_NODE = 2;
    private static final int SLOTS = 16;
    private static final int OPS = 3000;
    private static final long PASS = 1024;
    private static final long LIMIT = 4096;
    private static final EpochOptions OPTIONS = EpochOptions.defaults().withLease(Duration.ofMillis(500))
            .withClockSkew(Duration.ZERO).withBytes(PASS, LIMIT).withLimitWait(Duration.ofSeconds(30));

    /** What one worker saw. */
    private record Worker(long ops, long reads, long violations, String firstViolation, long maxUnreclaimed,
                          long retiredBytes, long limitTimeouts) {
    }

    private static TestCluster cluster() {
        Function<SimOptions, Fabric> verbs = Fabrics.verbs().findFirst().orElseThrow().getPayload();
        return new TestCluster(verbs, SimOptions.defaults(), NODES,
                b -> b.segmentSize(2 << 20).segmentCount(2).threadsPerNode(PER_NODE + 2), Duration.ofSeconds(400));
    }

    private static Worker[] churn(TestCluster c, long array) throws InterruptedException {
        int[] nodes = new int[NODES * PER_NODE];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = i % NODES;
        }
        Worker[] out = new Worker[nodes.length];
        c.runOnThreads(nodes, (index, t) -> {
            EpochReclaimer r = new EpochReclaimer(t, t.allocator(), OPTIONS);
            ChurnWorkload w = new ChurnWorkload(t, t.allocator(), r, array, SLOTS, 50, 5, 41L * index + 5);
            long max = 0;
            for (int k = 0; k < OPS; k++) {
                w.op();
                max = Math.max(max, r.unreclaimedBytes());
            }
            out[index] = new Worker(OPS, w.reads(), w.violations(), w.firstViolation(), max, r.retiredBytes(),
                    r.limitTimeouts());
            r.close();
        });
        return out;
    }

    private static void assertSafeAndBounded(Worker[] workers) {
        for (Worker w : workers) {
            assertEquals(0, w.violations(), w.firstViolation());
            assertTrue(w.reads() > OPS / 4, "reads were checked: " + w.reads());
            assertEquals(0, w.limitTimeouts(), "no wait for the limit ran out");
            assertTrue(w.maxUnreclaimed() < LIMIT, "unreclaimed bytes at a guard close stay under " + LIMIT
                    + ", peak " + w.maxUnreclaimed());
            assertTrue(w.retiredBytes() > 5 * LIMIT, "the run retired far more than the limit: " + w.retiredBytes());
        }
    }

    private static long array(TestCluster c) {
        try (ComputeThread t = c.thread(0)) {
            return ChurnWorkload.createArray(t, t.allocator(), SLOTS, 0);
        }
    }

    @DeviceTest
    void shouldReadNoFreedMemoryAndStayUnderTheLimitWhenSixThreadsOfThreeNodesChurn() throws InterruptedException {
        try (TestCluster c = cluster()) {
            assertSafeAndBounded(churn(c, array(c)));
        }
    }

    @DeviceTest
    void shouldStayBoundedWithAThreadFrozenInAGuardOnceItsLeaseRanOut() throws InterruptedException {
        try (TestCluster c = cluster()) {
            long array = array(c);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch released = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            boolean[] validAtEnd = new boolean[1];
            Thread frozen = new Thread(() -> {
                try (ComputeThread t = c.thread(1)) {
                    EpochReclaimer r = new EpochReclaimer(t, t.allocator(), OPTIONS);
                    Guard g = r.enter();
                    t.read(array);
                    entered.countDown();
                    if (!released.await(400, TimeUnit.SECONDS)) {
                        throw new AssertionError("never released");
                    }
                    validAtEnd[0] = g.valid();
                    g.close();
                    r.close();
                } catch (Throwable e) {
                    failure.set(e);
                    entered.countDown();
                }
            }, "frozen@node1");
            frozen.setDaemon(true);
            frozen.start();
            assertTrue(entered.await(60, TimeUnit.SECONDS), "the frozen thread entered its guard");
            Worker[] workers;
            try {
                workers = churn(c, array);
            } finally {
                released.countDown();
                frozen.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertFalse(frozen.isAlive(), "the frozen thread finished");
            assertNull(failure.get());
            assertFalse(validAtEnd[0], "the frozen guard's lease ran out");
            assertSafeAndBounded(workers);
        }
    }
}
