package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.testing.FrozenRate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * The lock-free sets with the library's default reclaimer ({@link EpochReclaimer} with
 * {@link EpochOptions#defaults()}): while one thread is frozen before any of the first work requests of its
 * operations, the others keep at least half of their rate ({@link FrozenRate}). Each thread inserts and
 * removes keys of a small range of its own, so that every removal retires a node.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockFreeSetFrozenRateTest {
    private static final int HOME = 1;
    private static final int KEYS = 16;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(16 << 20));
    }

    /** Inserts keys {@code base + 1 .. base + KEYS} in turn, then removes them in turn, again and again. */
    private static FrozenRate.Handle insertAndRemove(RemoteSet set, long base) {
        long[] n = {0};
        return () -> {
            long i = n[0]++;
            long key = base + i % KEYS + 1;
            if (i / KEYS % 2 == 0) {
                set.insert(key);
            } else {
                set.remove(key);
            }
        };
    }

    @Test
    void shouldKeepTheOthersOfALockFreeListSetGoingWhileOneThreadIsFrozen() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = LockFreeListSet.create(t, r, HOME).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c,
                    (i, t, r) -> insertAndRemove(LockFreeListSet.attach(t, r, ptr), 1000L * i));
        }
    }

    @Test
    void shouldKeepTheOthersOfALockFreeSkipListSetGoingWhileOneThreadIsFrozen() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = LockFreeSkipListSet.create(t, r, HOME).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c,
                    (i, t, r) -> insertAndRemove(LockFreeSkipListSet.attach(t, r, ptr), 1000L * i));
        }
    }
}
