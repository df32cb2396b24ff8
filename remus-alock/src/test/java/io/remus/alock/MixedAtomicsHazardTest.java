package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IBV_ATOMIC_HCA hazard made visible, on the simulator only: a naive lock whose local threads
 * CAS the lock word with the CPU while remote threads CAS it through the NIC loses mutual
 * exclusion, because NIC atomics are atomic only among themselves (ARCHITECTURE.md's atomicity
 * table); ALock, which keeps CPU and RDMA atomics on separate words, does not. The simulator widens
 * the NIC atomic's load-store window ({@link SimOptions#withYieldInsideNicAtomics(boolean)}), so a
 * failure of the naive lock proves that the simulator models the hazard. On Soft-RoCE the window
 * is hit through a lock only under multi-threaded TCG: {@link NaiveLockHazardOnVerbsTest} (tag
 * {@code hazard}, not in CI).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MixedAtomicsHazardTest {

    private static long overlapsUnderMixedContention(BiFunction<LockContext, Long, Lock> open) throws Exception {
        SimOptions opts = SimOptions.defaults().withYieldInsideNicAtomics(true);
        int[] nodes = {1, 1, 0, 2};
        try (TestCluster c = LockClusters.start(SimFabric::new, opts, 3, 2)) {
            long word = LockClusters.lockWord(c, 1);
            CheckedCriticalSection cs = new CheckedCriticalSection(c.block(1, 8 * (CheckedCriticalSection.STAMPS + 1)));
            LockOptions options = LockOptions.defaults().withBudgets(2, 2).withAcquireTimeout(Duration.ofSeconds(5));
            c.runOnThreads(nodes, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = open.apply(ctx, word);
                for (int r = 0; r < 300; r++) {
                    lock.lock();
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                return cs.overlaps() + (nodes.length * 300L - cs.counter(t));
            }
        }
    }

    @Test
    void shouldLoseMutualExclusionWhenCpuAndRdmaCasShareOneWordButNotWithALock() throws Exception {
        long naive = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (naive == 0 && System.nanoTime() < deadline) {
            naive = overlapsUnderMixedContention((ctx, w) -> new NaiveMixedLock(ctx, w));
        }
        assertTrue(naive > 0, "CPU CAS and RDMA CAS on one word must be able to let two threads in (IBV_ATOMIC_HCA)");
        assertEquals(0, overlapsUnderMixedContention((ctx, w) -> LockKind.ALOCK.open(ctx, w)),
                "ALock keeps CPU and RDMA atomics on separate words");
    }
}
