package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALock in the layout of the IBV_ATOMIC_HCA hazard, on a real device: two threads on the lock's
 * home node (CPU atomics) and one on another node (RDMA atomics) contend for one lock for a slice,
 * and the checked critical section must see no overlap and no lost update. Runs in the device suite
 * (single-threaded TCG), where the naive lock's failure does not show in bounded time; both halves
 * together run under multi-threaded TCG in {@link NaiveLockHazardOnVerbsTest} (tag {@code hazard}).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ALockHazardLayoutOnVerbsTest {
    private static final Duration SLICE = Duration.ofSeconds(10);
    private static final int[] NODES = {1, 1, 0};

    private static Function<SimOptions, Fabric> verbs() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }

    @DeviceTest
    void shouldNeverLetTwoHoldersInWhenALockRunsTheSameLayout() throws Exception {
        LockOptions options = LockOptions.defaults().withBudgets(2, 2).withAcquireTimeout(Duration.ofSeconds(15));
        try (TestCluster c = LockClusters.start(verbs(), SimOptions.defaults(), 2, NODES.length + 1)) {
            long word = LockClusters.lockWord(c, 1);
            CheckedCriticalSection cs = new CheckedCriticalSection(c.block(1, 8 * (CheckedCriticalSection.STAMPS + 1)));
            long sliceEnd = System.nanoTime() + SLICE.toNanos();
            c.runOnThreads(NODES, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = LockKind.ALOCK.open(ctx, word);
                while (System.nanoTime() - sliceEnd < 0) {
                    lock.lock();
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                assertEquals(0, cs.overlaps(), "ALock let two holders in");
                assertEquals(cs.entries(), cs.counter(t), "ALock lost a critical-section update");
            }
            assertTrue(cs.entries() > 0);
        }
    }
}
