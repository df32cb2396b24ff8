package io.remus.alock;

import io.remus.alock.kind.LockKind;
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
 * table): two threads get in, or a release is lost (the word stays held by no thread: a NIC
 * compare-and-swap stored the value it had loaded over the CPU's store of 0); ALock, which keeps CPU
 * and RDMA atomics on separate words, does neither. The simulator widens
 * the NIC atomic's load-store window ({@link SimOptions#withYieldInsideNicAtomics(boolean)}), so a
 * failure of the naive lock proves that the simulator models the hazard. On Soft-RoCE the window
 * is hit through a lock only under multi-threaded TCG: {@link NaiveLockHazardOnVerbsTest} (tag
 * {@code hazard}, not in CI).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MixedAtomicsHazardTest {

    /**
     * @param giveUpOnTimeout whether a thread whose acquire times out stops quietly (the naive lock: a release lost
     *                        to a NIC atomic's store leaves the word held by no thread) rather than failing the test
     * @return exclusion violations: overlaps, lost updates, and 1 if the word is left held after every thread ended
     */
    private static long violationsUnderMixedContention(BiFunction<LockContext, Long, Lock> open, boolean giveUpOnTimeout)
            throws Exception {
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
                    try {
                        lock.lock();
                    } catch (LockTimeoutException e) {
                        if (!giveUpOnTimeout) {
                            throw e;
                        }
                        return;
                    }
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                return cs.overlaps() + (cs.entries() - cs.counter(t)) + (t.read(word) == 0 ? 0 : 1);
            }
        }
    }

    @Test
    void shouldLoseMutualExclusionWhenCpuAndRdmaCasShareOneWordButNotWithALock() throws Exception {
        long naive = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (naive == 0 && System.nanoTime() < deadline) {
            naive = violationsUnderMixedContention((ctx, w) -> new NaiveMixedLock(ctx, w), true);
        }
        assertTrue(naive > 0, "CPU CAS and RDMA CAS on one word must be able to let two threads in or lose a release "
                + "(IBV_ATOMIC_HCA)");
        assertEquals(0, violationsUnderMixedContention((ctx, w) -> LockKind.ALOCK.open(ctx, w), false),
                "ALock keeps CPU and RDMA atomics on separate words");
    }
}
