package io.remus.ds.reclaim;

import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two reclaimers without epochs: one never frees, the other frees at its barrier. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NeverAndBarrierReclaimerTest {
    private static final int BYTES = 48;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 2, b -> { });
    }

    private static boolean isFree(ComputeThread t, long block) {
        return BlockHeader.state(t.read(BlockHeader.address(block))) == BlockHeader.FREE;
    }

    @Test
    void shouldNeverFreeAndCountEveryRetiredByte() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            RemoteAllocator alloc = new RemoteAllocator(t);
            NeverReclaimer r = new NeverReclaimer(t);
            long p = alloc.allocate(BYTES, 1);
            long q = alloc.allocate(BYTES, 0);
            try (Guard g = r.enter()) {
                long incarnation = g.incarnation(p);
                r.retire(p, BYTES);
                r.retire(q, BYTES);
                assertTrue(g.valid());
                assertTrue(g.validate(p, incarnation));
                assertThrows(BadArgumentException.class, r::reclaim);
            }
            r.reclaim();
            r.close();
            assertFalse(isFree(t, p));
            assertFalse(isFree(t, q));
            assertEquals(2 * BYTES, r.unreclaimedBytes());
            assertEquals(2, r.unreclaimedBlocks());
            assertEquals(2 * BYTES, r.retiredBytes());
        }
    }

    @Test
    void shouldFreeWhatWasRetiredBeforeTheBarrier() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            RemoteAllocator alloc = new RemoteAllocator(t);
            BarrierReclaimer r = new BarrierReclaimer(t, alloc, new ClusterBarrier(t, 1));
            long p = alloc.allocate(BYTES, 1);
            try (Guard g = r.enter()) {
                r.retire(p, BYTES);
                assertThrows(BadArgumentException.class, r::reclaim, "the barrier is met outside guards");
            }
            assertFalse(isFree(t, p), "nothing is freed before the barrier");
            assertEquals(BYTES, r.unreclaimedBytes());
            r.reclaim();
            assertTrue(isFree(t, p));
            assertEquals(0, r.unreclaimedBytes());
            assertEquals(BYTES, r.retiredBytes());
        }
    }

    /** Given only the thread (and a barrier), the reclaimer frees into the thread's own allocator. */
    @Test
    void shouldFreeIntoTheThreadsOwnAllocatorWhenGivenOnlyTheThread() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            assertEquals("thread", assertThrows(NullPointerException.class, () -> new BarrierReclaimer(null)).getMessage());
            assertEquals("barrier", assertThrows(NullPointerException.class,
                    () -> new BarrierReclaimer(t, (ClusterBarrier) null)).getMessage());
            RemoteAllocator own = t.allocator();
            BarrierReclaimer r = new BarrierReclaimer(t, new ClusterBarrier(t, 1));
            long p = own.allocate(BYTES, 1);
            int cached = own.cachedBlockCount();
            r.retire(p, BYTES);
            r.reclaim();
            assertTrue(isFree(t, p));
            assertEquals(cached + 1, own.cachedBlockCount(), "freed into the thread's allocator");
            r.close();
            BarrierReclaimer all = new BarrierReclaimer(t);
            all.retire(own.allocate(BYTES, 1), BYTES);
            assertEquals(BYTES, all.unreclaimedBytes());
            all.close();
        }
    }

    @Test
    void shouldWaitForEveryParticipantBeforeFreeing() throws InterruptedException {
        try (TestCluster c = cluster()) {
            long p;
            try (ComputeThread t = c.thread(0)) {
                p = new RemoteAllocator(t).allocate(BYTES, 1);
            }
            long[] freedBeforeOtherArrived = new long[1];
            c.runOnThreads(new int[]{0, 1}, (index, t) -> {
                RemoteAllocator alloc = new RemoteAllocator(t);
                BarrierReclaimer r = new BarrierReclaimer(t, alloc, new ClusterBarrier(t, 2));
                if (index == 0) {
                    try (Guard g = r.enter()) {
                        r.retire(p, BYTES);
                    }
                    r.reclaim();
                    assertTrue(isFree(t, p));
                } else {
                    try (Guard g = r.enter()) {
                        Thread.sleep(200);
                        freedBeforeOtherArrived[0] = isFree(t, p) ? 1 : 0;
                    }
                    r.reclaim();
                }
            });
            assertEquals(0, freedBeforeOtherArrived[0], "a guard open while the other thread reclaims keeps the block");
        }
    }
}
