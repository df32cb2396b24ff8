package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory stays bounded under churn: 3 threads on 3 nodes insert, update and remove 32 keys 12,000 times
 * in all, allocating several times the home node's whole heap (two segments of 64 KiB) in key-value
 * blocks; with the epoch reclaimer the run completes and each thread's unreclaimed bytes stay under its
 * limit (plus what one operation retires) after every operation; with a reclaimer that never frees, the
 * same run exhausts the heap.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteHashMapChurnTest {
    private static final int HOME = 1;
    private static final int THREADS = 3;
    private static final int OPS = 4000;
    private static final int KEYS = 32;
    private static final int MAX_VALUE = 200;
    private static final long HEAP = 2 * (64 << 10);
    private static final long LIMIT = 4096;

    /** Runs the churn, checking every thread's unreclaimed bytes when asked; returns the bytes of key-value blocks the puts allocated. */
    private static long churn(TestCluster c, Function<ComputeThread, Reclaimer> reclaimers, boolean checkLimit) throws InterruptedException {
        long ptr;
        try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            ptr = RemoteHashMap.create(t, r, HOME, 16, MAX_VALUE).ptr();
        }
        AtomicLong allocated = new AtomicLong();
        c.runOnThreads(new int[] {0, 1, 2}, (index, t) -> {
            try (Reclaimer reclaimer = reclaimers.apply(t)) {
                RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptr);
                SplittableRandom rnd = new SplittableRandom(index + 1);
                long bytes = 0;
                for (int i = 0; i < OPS; i++) {
                    long key = rnd.nextInt(KEYS);
                    if (rnd.nextInt(10) < 6) {
                        int size = 8 + rnd.nextInt(MAX_VALUE - 8);
                        map.put(key, new byte[size]);
                        bytes += (long) Slot.unitsFor(RemoteHashMap.BLOCK_HEADER_BYTES + size) * Slot.UNIT;
                    } else {
                        map.remove(key);
                    }
                    long held = reclaimer.unreclaimedBytes();
                    assertTrue(!checkLimit || held <= LIMIT + 4 * Slot.UNIT, "thread " + index + " holds " + held + " unreclaimed bytes after "
                            + (i + 1) + " operations, over its limit of " + LIMIT);
                }
                allocated.addAndGet(bytes);
            }
        });
        return allocated.get();
    }

    @Test
    void shouldKeepMemoryBoundedWhenTheEpochReclaimerFreesReplacedBlocks() throws InterruptedException {
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofSeconds(30)).withClockSkew(Duration.ZERO)
                .withBytes(1024, LIMIT).withLimitWait(Duration.ofSeconds(20));
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            long allocated = churn(c, t -> new EpochReclaimer(t, t.allocator(), options), true);
            assertTrue(allocated > 4 * HEAP, "the churn allocated " + allocated + " bytes, several times the heap of " + HEAP);
        }
    }

    @Test
    void shouldExhaustTheHeapWhenNothingIsFreed() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            AssertionError failed = assertThrows(AssertionError.class, () -> churn(c, NeverReclaimer::new, false));
            assertInstanceOf(AllocationExhaustedException.class, failed.getCause(), "the run without frees ran out of memory");
        }
    }
}
