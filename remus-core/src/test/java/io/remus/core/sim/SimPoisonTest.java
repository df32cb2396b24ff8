package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link SimOptions#poisonFreedBlocks()}: what a successful compare-and-swap to a free header does to the block behind it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimPoisonTest {
    private static final int PAYLOAD = 64;

    private static TestCluster cluster(boolean poison) {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(poison), 2, b -> { });
    }

    private static long filled(ComputeThread t, RemoteAllocator a, int node, byte value) {
        long p = a.allocate(PAYLOAD, node);
        byte[] bytes = new byte[PAYLOAD];
        java.util.Arrays.fill(bytes, value);
        t.write(p, MemorySegment.ofArray(bytes));
        return p;
    }

    private static void assertAllWords(TestCluster c, long block, long expected, String what) {
        MemorySegment raw = c.raw(block, PAYLOAD);
        for (int i = 0; i < PAYLOAD; i += 8) {
            assertEquals(expected, raw.get(ValueLayout.JAVA_LONG_UNALIGNED, i), what + ", word at +" + i);
        }
    }

    @Test
    void shouldPoisonThePayloadWhenTheAllocatorFreesABlock() {
        try (TestCluster c = cluster(true); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            for (int node = 0; node < 2; node++) {
                long p = filled(t, a, node, (byte) 0x11);
                long next = filled(t, a, node, (byte) 0x22);
                a.deallocate(p, PAYLOAD);
                assertAllWords(c, p, SimOptions.POISON, "freed block on node " + node + " (" + RemotePtr.toString(p) + ")");
                assertAllWords(c, next, 0x2222222222222222L, "the live block behind it");
                long header = c.raw(BlockHeader.address(p), 8).get(ValueLayout.JAVA_LONG, 0);
                assertEquals(BlockHeader.FREE, BlockHeader.state(header), "the header stays the free header");
            }
        }
    }

    @Test
    void shouldLeaveTheDataWhenPoisoningIsOff() {
        try (TestCluster c = cluster(false); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = filled(t, a, 1, (byte) 0x11);
            a.deallocate(p, PAYLOAD);
            assertAllWords(c, p, 0x1111111111111111L, "freed block without poisoning");
        }
    }

    @Test
    void shouldPoisonOnlyWhenACompareAndSwapStoresTheBlocksOwnFreeHeader() {
        try (TestCluster c = cluster(true); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = filled(t, a, 1, (byte) 0x33);
            long header = BlockHeader.address(p);
            long allocated = t.read(header);
            int sizeClass = SizeClasses.classOf(PAYLOAD);
            long freeOfOther = BlockHeader.encode(RemotePtr.offset(p, 64), BlockHeader.FREE, sizeClass, 1);
            long free = BlockHeader.encode(p, BlockHeader.FREE, sizeClass, BlockHeader.incarnation(allocated) + 1);

            t.compareAndSwap(header, allocated + 1, free);
            assertAllWords(c, p, 0x3333333333333333L, "a failed compare-and-swap");
            assertEquals(allocated, t.compareAndSwap(header, allocated, freeOfOther));
            assertAllWords(c, p, 0x3333333333333333L, "a free header of another block");
            t.compareAndSwap(header, freeOfOther, allocated);
            t.fetchAndAdd(header, free - allocated);
            assertAllWords(c, p, 0x3333333333333333L, "a fetch-and-add, even one that makes the free header");
            t.compareAndSwap(header, free, allocated);

            long word = RemotePtr.offset(p, 8);
            assertEquals(0x3333333333333333L, t.compareAndSwap(word, 0x3333333333333333L, free));
            assertEquals(0x3333333333333333L, c.raw(RemotePtr.offset(p, 16), 8).get(ValueLayout.JAVA_LONG, 0),
                    "a free header of block p stored elsewhere than at p's header");

            assertEquals(allocated, t.compareAndSwap(header, allocated, free));
            assertEquals(SimOptions.POISON, c.raw(RemotePtr.offset(p, 56), 8).get(ValueLayout.JAVA_LONG, 0),
                    "the block's own free header, stored by a compare-and-swap");
        }
    }
}
