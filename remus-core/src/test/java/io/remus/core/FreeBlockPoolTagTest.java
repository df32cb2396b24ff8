package io.remus.core;

import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ABA guard of the pools' head: a pop held back between its walk and its compare-and-swap while
 * other operations change the head 2<sup>19</sup> times (the period of a 19-bit change counter) and
 * put the block it walked back on top must not install the list it read before.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FreeBlockPoolTagTest {
    private static final int NODE = 1;
    private static final long TAG_PERIOD = 1L << 19;

    @Test
    void shouldRefuseAPopHeldBackAcrossTheTagPeriodWhenItsTopBlockCameBack() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 2, b -> { });
             ComputeThread t = c.thread(NODE)) {
            int sizeClass = SizeClasses.classOf(8);
            long[] four = freedBlocks(t, sizeClass, 4);
            long x = four[0];
            long n = four[1];
            long m = four[2];
            long y = four[3];
            FreeBlockPool others = new FreeBlockPool(t, 2);
            others.push(NODE, sizeClass, new long[] {n}, new long[] {header(t, n)}, 0, 1);
            others.push(NODE, sizeClass, new long[] {x}, new long[] {header(t, x)}, 0, 1);
            long headPtr = FreeBlockPool.headPointer(t, NODE, sizeClass, FreeBlockPool.homeShard(t));
            long headSeen = t.read(headPtr);

            long[] changes = {0};
            boolean[] held = {false};
            FreeBlockPool delayed = new FreeBlockPool(t, 2, () -> {
                if (held[0]) {
                    return;
                }
                held[0] = true;
                long[] got = new long[FreeBlockPool.BATCH];
                long[] headers = new long[FreeBlockPool.BATCH];
                assertEquals(1, others.pop(NODE, sizeClass, got, headers));
                assertEquals(x, got[0]);
                long xHeader = headers[0];
                assertEquals(1, others.pop(NODE, sizeClass, got, headers));
                assertEquals(n, got[0], "N now belongs to another thread");
                changes[0] += 2;
                long[] yHeader = {header(t, y)};
                while (changes[0] < TAG_PERIOD - 2) {
                    others.push(NODE, sizeClass, new long[] {y}, yHeader, 0, 1);
                    assertEquals(1, others.pop(NODE, sizeClass, got, headers));
                    yHeader[0] = headers[0];
                    changes[0] += 2;
                }
                others.push(NODE, sizeClass, new long[] {m}, new long[] {header(t, m)}, 0, 1);
                others.push(NODE, sizeClass, new long[] {x}, new long[] {xHeader}, 0, 1);
                changes[0] += 2;
            });
            long[] got = new long[FreeBlockPool.BATCH];
            long[] headers = new long[FreeBlockPool.BATCH];
            int popped = delayed.pop(NODE, sizeClass, got, headers);

            assertEquals(TAG_PERIOD, changes[0], "the head changed once per tag period while the pop was held");
            assertEquals(RemotePtr.address(x), RemotePtr.address(FreeBlockPool.pointer(headSeen, NODE)));
            assertEquals(1, popped);
            assertEquals(x, got[0], "the held pop retried and took the block on top");
            assertArrayEquals(new long[] {m}, FreeBlockPool.blocks(t, NODE, sizeClass),
                    "the pool holds M only, not the N the held pop walked to: " + Arrays.toString(FreeBlockPool.blocks(t, NODE, sizeClass)));
        }
    }

    /** Carves {@code count} blocks and frees them into an allocator's cache, which is never used again. */
    private static long[] freedBlocks(ComputeThread t, int sizeClass, int count) {
        RemoteAllocator a = new RemoteAllocator(t);
        long[] blocks = new long[count];
        for (int i = 0; i < count; i++) {
            blocks[i] = a.allocate(SizeClasses.size(sizeClass), NODE);
        }
        for (long p : blocks) {
            a.deallocate(p, SizeClasses.size(sizeClass));
        }
        return blocks;
    }

    private static long header(ComputeThread t, long block) {
        return t.read(BlockHeader.address(block));
    }
}
