package io.remus.core;

import io.remus.core.config.AllocationPolicy;
import io.remus.core.config.NodeRange;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.error.InvalidFreeException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteAllocatorTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHandOutDisjointAlignedUsableBlocksWhenAllocating(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(24, 1);
            long q = a.allocate(24, 1);
            assertEquals(1, RemotePtr.node(p));
            assertEquals(0, RemotePtr.address(p) % 8);
            assertTrue(Math.abs(RemotePtr.address(q) - RemotePtr.address(p)) >= 32 + BlockHeader.SIZE,
                    "24 bytes take a 32-byte class, behind an 8-byte header");
            long base = RemotePtr.address(t.segmentBase(1, 0));
            assertTrue(RemotePtr.address(p) >= base + ControlBlock.heapStart(0, 3) + BlockHeader.SIZE,
                    "blocks and their headers never overlap the control block");
            t.write(p, 5);
            t.write(RemotePtr.offset(p, 16), 6);
            assertEquals(5, t.read(p));
            assertEquals(6, t.read(RemotePtr.offset(p, 16)));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowWithoutLoopingWhenNodeIsExhausted(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.segmentSize(4096).segmentCount(2));
             ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            int blocks = 0;
            try {
                while (blocks < 100) {
                    a.allocate(1024, 1);
                    blocks++;
                }
            } catch (AllocationExhaustedException expected) {
                assertEquals(5, blocks, "segment 0 holds 2 blocks of 8 + 1024 bytes after its control block, segment 1 "
                        + "holds 3 after its watermark");
            }
            assertThrows(AllocationExhaustedException.class, () -> a.allocate(1024, 1));
            long heap0 = ControlBlock.heapStart(0, 2);
            assertEquals(4096 - heap0 - 2 * 1032, 496, "segment 0's tail behind its control words and 2 blocks");
            assertEquals(1, RemotePtr.node(a.allocate(512, 1)), "segment 1's 936-byte tail serves a smaller class");
            assertThrows(AllocationExhaustedException.class, () -> a.allocate(512, 1));
            assertEquals(1, RemotePtr.node(a.allocate(256, 1)), "segment 0's 496-byte tail serves a smaller one still");
            long watermark = RemotePtr.offset(t.segmentBase(1, 0), ControlBlock.WATERMARK);
            assertTrue(t.read(watermark) <= t.segmentLength(1, 0), "a segment too full leaves its watermark alone");
            assertEquals(0, RemotePtr.node(a.allocate(8, 0)), "other nodes are unaffected");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRejectWhenSizeIsBadOrNodeIsNoMemoryNode(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.memoryNodes(new NodeRange(1, 2)));
             ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            assertThrows(BadArgumentException.class, () -> a.allocate(0));
            assertThrows(BadArgumentException.class, () -> a.allocate(-1));
            assertThrows(BadArgumentException.class, () -> a.allocate(SizeClasses.MAX + 1));
            assertThrows(BadArgumentException.class, () -> a.allocate(8, 0));
            assertThrows(BadArgumentException.class, () -> a.deallocate(RemotePtr.NULL, 8));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReuseFreedBlockWhenSameClassIsAllocatedAgain(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(100, 2);
            long q = a.allocate(100, 2);
            a.deallocate(p, 100);
            assertEquals(p, a.allocate(120, 2), "same 128-byte class");
            assertNotEquals(p, a.allocate(100, 2));
            a.deallocate(q, 100);
            assertNotEquals(q, a.allocate(100, 1), "a block is reused only on its own node");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldPickNodesByPolicyWhenNoNodeIsNamed(Function<SimOptions, Fabric> make) {
        try (TestCluster rr = new TestCluster(make, SimOptions.defaults(), 3, b -> b.allocationPolicy(AllocationPolicy.ROUND_ROBIN));
             ComputeThread t = rr.thread(1)) {
            RemoteAllocator a = new RemoteAllocator(t);
            int first = RemotePtr.node(a.allocate(8));
            for (int i = 1; i < 7; i++) {
                assertEquals((first + i) % 3, RemotePtr.node(a.allocate(8)));
            }
        }
        try (TestCluster lf = new TestCluster(make, SimOptions.defaults(), 3, b -> b.allocationPolicy(AllocationPolicy.LOCAL_FIRST));
             ComputeThread t = lf.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            for (int i = 0; i < 5; i++) {
                assertEquals(2, RemotePtr.node(a.allocate(64)));
            }
        }
        try (TestCluster rnd = new TestCluster(make, SimOptions.defaults(), 3, b -> b.allocationPolicy(AllocationPolicy.RANDOM));
             ComputeThread t = rnd.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                seen.add(RemotePtr.node(a.allocate(8)));
            }
            assertEquals(Set.of(0, 1, 2), seen);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNeverHandOutOneBlockTwiceWhenThreadsOfSeveralNodesAllocate(Function<SimOptions, Fabric> make) throws Exception {
        Set<Long> blocks = ConcurrentHashMap.newKeySet();
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, b -> b.threadsPerNode(2))) {
            c.runOnThreads(new int[] {0, 0, 1, 1, 2, 2}, (i, t) -> {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int k = 0; k < 200; k++) {
                    assertTrue(blocks.add(a.allocate(48, 1)), "block handed out twice");
                }
            });
        }
        assertEquals(1200, blocks.size());
    }

    private static long[] counts(ComputeThread t) {
        long[] c = new long[Opcode.values().length];
        for (Opcode op : Opcode.values()) {
            c[op.ordinal()] = t.postedOperations(op);
        }
        return c;
    }

    private static void assertCost(ComputeThread t, long[] before, int reads, int writes, int compareAndSwaps, String what) {
        assertCost(t, before, reads, writes, compareAndSwaps, 0, what);
    }

    private static void assertCost(ComputeThread t, long[] before, int reads, int writes, int compareAndSwaps, int fetchAndAdds,
                                   String what) {
        long[] after = counts(t);
        assertEquals(reads, after[Opcode.READ.ordinal()] - before[Opcode.READ.ordinal()], what + ": READs");
        assertEquals(writes, after[Opcode.WRITE.ordinal()] - before[Opcode.WRITE.ordinal()], what + ": WRITEs");
        assertEquals(compareAndSwaps, after[Opcode.COMPARE_AND_SWAP.ordinal()] - before[Opcode.COMPARE_AND_SWAP.ordinal()],
                what + ": compare-and-swaps");
        assertEquals(fetchAndAdds, after[Opcode.FETCH_AND_ADD.ordinal()] - before[Opcode.FETCH_AND_ADD.ordinal()],
                what + ": fetch-and-adds");
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReserveARunPerFetchAndAddWhenTheSegmentHasRoomForManyRuns(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(1 << 20));
             ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            int run = (int) RemoteAllocator.blocksPerRun(SizeClasses.classOf(64));
            assertEquals(RemoteAllocator.RUN_BLOCKS, run);
            long[] before = counts(t);
            long first = a.allocate(64, 1);
            assertCost(t, before, 1, 0, 2, "a first look: the empty pool's head READ, a compare-and-swap of the watermark that"
                    + " reserves a run, the header's");
            for (int k = 0; k < 3; k++) {
                before = counts(t);
                for (int i = 1; i < run; i++) {
                    assertEquals(RemotePtr.offset(first, (long) (k * run + i) * (BlockHeader.SIZE + 64)), a.allocate(64, 1),
                            "a run's blocks lie one behind the other");
                }
                assertCost(t, before, 0, 0, run - 1, "blocks from the run: the header's CAS each");
                before = counts(t);
                a.allocate(64, 1);
                assertCost(t, before, 1, 0, 1, 1, "the next run: the empty pool's head READ, one fetch-and-add, the header's CAS");
            }
            assertEquals(run - 1, a.reservedBlockCount());
            a.flush();
            assertEquals(run - 1, a.reservedBlockCount(), "a flush empties the caches only");
            a.close();
            assertEquals(0, a.reservedBlockCount(), "a close returns the run's blocks to the pool");
            assertEquals(run - 1, FreeBlockPool.blocks(t, 1, SizeClasses.classOf(64)).length);
        }
    }

    /**
     * Reserved runs are what the Javadoc's exhaustion bound allows: blocks of another allocator's run are out of
     * reach until it closes, at most {@code RUN_BLOCKS - 1} of a class; then they serve.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailOnlyForWantOfTheBlocksOthersRunsHoldAndServeThemOnceClosed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.segmentSize(4096).segmentCount(2));
             ComputeThread t = c.thread(0); ComputeThread u = c.thread(1)) {
            long footprint = BlockHeader.SIZE + 8;
            long capacity = (4096 - ControlBlock.heapStart(0, 2)) / footprint + (4096 - ControlBlock.heapStart(1, 2)) / footprint;
            long run = RemoteAllocator.runBlocks(SizeClasses.classOf(8), 4096 - ControlBlock.heapStart(0, 2), footprint);
            assertTrue(run > 1 && run < RemoteAllocator.RUN_BLOCKS, "a 4 KiB segment caps the run at a share of its heap: " + run);
            RemoteAllocator a = new RemoteAllocator(t);
            Set<Long> blocks = new HashSet<>();
            blocks.add(a.allocate(8, 1));
            assertEquals(run - 1, a.reservedBlockCount());
            RemoteAllocator b = new RemoteAllocator(u);
            assertThrows(AllocationExhaustedException.class, () -> {
                while (true) {
                    assertTrue(blocks.add(b.allocate(8, 1)));
                }
            });
            assertEquals(capacity - (run - 1), blocks.size(), "b got every block but a's reserved ones");
            assertEquals(0, b.reservedBlockCount(), "near the end runs are capped at what fits: b reserved no more than it used");
            a.close();
            for (int i = 1; i < run; i++) {
                assertTrue(blocks.add(b.allocate(8, 1)));
            }
            assertEquals(capacity, blocks.size());
            assertThrows(AllocationExhaustedException.class, () -> b.allocate(8, 1));
            assertThrows(AllocationExhaustedException.class, () -> a.allocate(8, 1));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTheRdmaOperationsItsJavadocStates(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long[] before = counts(t);
            long p = a.allocate(64, 1);
            assertCost(t, before, 1, 0, 2, "a carved block: the empty pool's head READ, the watermark's CAS (a first look,"
                    + " which reserves a run) and the header's");
            before = counts(t);
            a.allocate(64, 1);
            assertCost(t, before, 0, 0, 1, "the next one, from the run: the header's CAS alone");
            long[] uBefore = counts(u);
            long q = new RemoteAllocator(u).allocate(64, 1);
            assertCost(u, uBefore, 1, 0, 3, "a block carved after another's run: one failed guess of the watermark, then a"
                    + " compare-and-swap for a run (64 KiB segments have room for fewer than HEADROOM_RUNS runs) and the header's");
            int run = (int) RemoteAllocator.blocksPerRun(SizeClasses.classOf(64));
            assertEquals(run - 2, a.reservedBlockCount());
            for (int i = 2; i < run; i++) {
                a.allocate(64, 1);
            }
            before = counts(t);
            a.allocate(64, 1);
            assertCost(t, before, 1, 0, 3, "a block after the run: the empty pool's head READ, a failed compare-and-swap"
                    + " of the watermark (u reserved since), the one that reserves the next run, and the header's");
            assertEquals(run - 1, a.reservedBlockCount());
            before = counts(t);
            a.deallocate(p, 64);
            assertCost(t, before, 1, 0, 1, "a remote free: the header's READ and CAS");
            before = counts(t);
            assertEquals(p, a.allocate(64, 1));
            assertCost(t, before, 0, 0, 1, "a block from the cache: the header's CAS");
            before = counts(t);
            long own = a.allocate(64, 0);
            a.deallocate(own, 64);
            assertCost(t, before, 0, 0, 3, "on its own node: atomics through the NIC, the pool head and the header read by the CPU");
            before = counts(t);
            assertThrows(DoubleFreeException.class, () -> a.deallocate(own, 64));
            assertThrows(InvalidFreeException.class, () -> a.deallocate(RemotePtr.offset(q, 8), 64));
            assertCost(t, before, 1, 0, 0, "refused frees change nothing: one READ for the remote one, none for the local one");
        }
    }
}
