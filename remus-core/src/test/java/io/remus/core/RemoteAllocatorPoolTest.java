package io.remus.core;

import io.remus.core.config.NodeRange;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
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

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared free pools: a freed block is reusable by any thread of any node, no free is dropped,
 * a pool costs one compare-and-swap per batch, and what a pool holds is what was freed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteAllocatorPoolTest {
    private static final int B = FreeBlockPool.BATCH;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static long word(TestCluster c, long ptr) {
        return c.raw(ptr, 8).get(ValueLayout.JAVA_LONG, 0);
    }

    private static void stray(TestCluster c, long ptr, long value) {
        c.raw(ptr, 8).set(ValueLayout.JAVA_LONG, 0, value);
    }

    private static long[] watermarks(TestCluster c, ComputeThread t, int node) {
        long[] w = new long[t.segmentCount(node)];
        for (int s = 0; s < w.length; s++) {
            w[s] = word(c, RemotePtr.offset(t.segmentBase(node, s), ControlBlock.WATERMARK));
        }
        return w;
    }

    private static Set<Long> pooled(ComputeThread t, int node, int sizeClass) {
        Set<Long> set = new HashSet<>();
        for (long p : FreeBlockPool.blocks(t, node, sizeClass)) {
            assertTrue(set.add(p), RemotePtr.toString(p) + " is in the pool twice");
        }
        return set;
    }

    private static long atomics(ComputeThread t) {
        return t.postedOperations(Opcode.COMPARE_AND_SWAP) + t.postedOperations(Opcode.FETCH_AND_ADD);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReuseOnAnotherNodeTheBlocksAThreadFreed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            Set<Long> freed = new HashSet<>();
            for (int i = 0; i < 5 * B; i++) {
                freed.add(a.allocate(48, 1));
            }
            for (long p : freed) {
                a.deallocate(p, 48);
            }
            assertEquals(RemoteAllocator.CACHE_CAPACITY, a.cachedBlockCount(), "frees beyond the cache went to the pool");
            assertEquals(5 * B - RemoteAllocator.CACHE_CAPACITY, pooled(u, 1, SizeClasses.classOf(48)).size());
            a.flush();
            assertEquals(0, a.cachedBlockCount());
            assertEquals(freed, pooled(u, 1, SizeClasses.classOf(48)), "after the flush the pool holds every freed block");
            long[] marks = watermarks(c, u, 1);
            RemoteAllocator b = new RemoteAllocator(u);
            Set<Long> reused = new HashSet<>();
            for (int i = 0; i < 5 * B; i++) {
                reused.add(b.allocate(64, 1));
            }
            assertEquals(freed, reused, "a thread of node 2 got exactly the blocks a thread of node 0 freed");
            assertArrayEquals(marks, watermarks(c, u, 1), "nothing was carved while the pool had blocks");
            assertEquals(0, FreeBlockPool.blocks(u, 1, SizeClasses.classOf(48)).length);
            long fresh = b.allocate(64, 1);
            assertTrue(!freed.contains(fresh), "an empty pool sends the allocation to the watermark");
            int firstOfBatch = 0;
            for (long p : reused) {
                long h = word(c, BlockHeader.address(p));
                assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(h));
                int incarnation = BlockHeader.incarnation(h);
                assertTrue(incarnation == 2 || incarnation == 3, "freed once, reused once, and once more where it"
                        + " was the first block of a pushed batch: " + incarnation);
                firstOfBatch += incarnation - 2;
            }
            assertEquals(5, firstOfBatch, "the 5 batches pushed each counted one push on their first block");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHandTheThreadAllocatorsCacheBackToThePoolWhenTheComputeThreadCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread u = c.thread(2)) {
            Set<Long> freed = new HashSet<>();
            try (ComputeThread t = c.thread(0)) {
                assertSame(t.allocator(), t.allocator(), "one allocator per compute thread");
                for (int i = 0; i < B; i++) {
                    freed.add(t.allocator().allocate(48, 1));
                }
                for (long p : freed) {
                    t.allocator().deallocate(p, 48);
                }
                assertEquals(B, t.allocator().cachedBlockCount(), "fewer frees than the cache holds stay cached");
                assertEquals(0, pooled(u, 1, SizeClasses.classOf(48)).size());
            }
            assertEquals(freed, pooled(u, 1, SizeClasses.classOf(48)), "closing the compute thread flushed its allocator");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepEveryFreeReusableWhenOneThreadFreesMoreThan1024BlocksOfAClass(Function<SimOptions, Fabric> make) {
        int count = 3000;
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(1)) {
            RemoteAllocator a = new RemoteAllocator(t);
            Set<Long> freed = new HashSet<>();
            for (int i = 0; i < count; i++) {
                freed.add(a.allocate(8, 2));
            }
            for (long p : freed) {
                a.deallocate(p, 8);
            }
            int reserved = a.reservedBlockCount();
            assertEquals(RemoteAllocator.RUN_BLOCKS - count % RemoteAllocator.RUN_BLOCKS, reserved, "the last run's rest");
            a.close();
            Set<Long> inPool = pooled(u, 2, 0);
            assertTrue(inPool.containsAll(freed), "every one of " + count + " frees of 8-byte blocks is in the pool");
            assertEquals(count + reserved, inPool.size(), "and the blocks of the last run, which the close returned");
            long[] marks = watermarks(c, u, 2);
            RemoteAllocator b = new RemoteAllocator(u);
            Set<Long> reused = new HashSet<>();
            for (int i = 0; i < count + reserved; i++) {
                assertTrue(reused.add(b.allocate(1, 2)), "handed out twice");
            }
            assertEquals(inPool, reused);
            assertArrayEquals(marks, watermarks(c, u, 2));
        }
    }

    /**
     * The amortised figures of {@link RemoteAllocator}'s Javadoc: a block that goes round through a
     * pool costs, per free, the header's compare-and-swap plus 1/{@link FreeBlockPool#BATCH} of the
     * pool's, and per allocation 1/{@link FreeBlockPool#BATCH} of the pool's and a WRITE of the
     * header; one a thread frees and reuses itself costs its free's compare-and-swap alone.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostOneAtomicPerAllocationAndPerFreePlusThePoolsPerBatch(Function<SimOptions, Fabric> make) {
        int count = 20 * B;
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long[] blocks = new long[count];
            for (int i = 0; i < count; i++) {
                blocks[i] = a.allocate(100, 1);
            }
            long atomics = atomics(t);
            long writes = t.postedOperations(Opcode.WRITE);
            long reads = t.postedOperations(Opcode.READ);
            for (long p : blocks) {
                a.deallocate(p, 100);
            }
            int drains = (count - RemoteAllocator.CACHE_CAPACITY) / B;
            assertEquals(count + 2L * drains, atomics(t) - atomics,
                    "a header CAS per free; per drained batch a CAS of its first header (the tag) and one of the head");
            assertTrue(atomics(t) - atomics <= count + 2L * count / B, "at most 1 + 2/B atomics per free");
            assertEquals((long) drains * B, t.postedOperations(Opcode.WRITE) - writes, "a link WRITE per drained block");
            assertEquals(count + drains, t.postedOperations(Opcode.READ) - reads, "a header READ per free, a head READ per drain");

            RemoteAllocator b = new RemoteAllocator(u);
            int fromPool = drains * B;
            long uAtomics = atomics(u);
            long uReads = u.postedOperations(Opcode.READ);
            long uWrites = u.postedOperations(Opcode.WRITE);
            for (int i = 0; i < fromPool; i++) {
                b.allocate(128, 1);
            }
            assertEquals(fromPool + drains, atomics(u) - uAtomics, "a header CAS per allocation, a head CAS per refill");
            assertTrue(atomics(u) - uAtomics <= fromPool + fromPool / B, "at most 1 + 1/B atomics per allocation");
            assertEquals(0, u.postedOperations(Opcode.WRITE) - uWrites, "no WRITE: headers change by CAS alone");
            assertEquals((long) drains * (1 + 2 * B) + (drains - 1), u.postedOperations(Opcode.READ) - uReads,
                    "a refill READs the head, each block's header and link, and the next batch's first header");
            assertEquals(0, FreeBlockPool.blocks(u, 1, SizeClasses.classOf(100)).length);

            long self = a.allocate(100, 1);
            atomics = atomics(t);
            for (int i = 0; i < 100; i++) {
                a.deallocate(self, 100);
                assertEquals(self, a.allocate(100, 1));
            }
            assertEquals(200, atomics(t) - atomics, "a block a thread frees and reuses itself costs its free's and its reuse's CAS");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseDoubleFreesAndForeignPointersOfPooledAndCachedBlocks(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.memoryNodes(new NodeRange(1, 2)));
             ComputeThread t = c.thread(0); ComputeThread u = c.thread(1)) {
            RemoteAllocator a = new RemoteAllocator(t);
            RemoteAllocator b = new RemoteAllocator(u);
            long cached = a.allocate(32, 1);
            long pooled = a.allocate(32, 1);
            a.deallocate(pooled, 32);
            a.flush();
            a.deallocate(cached, 32);
            assertEquals(Set.of(pooled), pooled(u, 1, SizeClasses.classOf(32)));
            for (long p : new long[] {cached, pooled}) {
                DoubleFreeException e = assertThrows(DoubleFreeException.class, () -> b.deallocate(p, 32));
                assertEquals(p, e.pointer());
                assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 32));
                assertThrows(InvalidFreeException.class, () -> b.deallocate(RemotePtr.offset(p, 8), 8),
                        "inside a free block, behind its link word");
            }
            assertThrows(BadArgumentException.class, () -> a.deallocate(RemotePtr.of(0, RemotePtr.address(pooled)), 32),
                    "node 0 is no memory node");
            assertEquals(Set.of(pooled), pooled(u, 1, SizeClasses.classOf(32)), "refused frees left the pool alone");
            assertEquals(pooled, b.allocate(32, 1));
            assertEquals(cached, a.allocate(32, 1));
            b.deallocate(pooled, 32);
            a.deallocate(cached, 32);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowNamingTheBlockAndLeaveTheHeadWhenAPooledHeaderIsOverwritten(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long[] blocks = new long[B];
            for (int i = 0; i < B; i++) {
                blocks[i] = a.allocate(16, 1);
            }
            for (long p : blocks) {
                a.deallocate(p, 16);
            }
            a.flush();
            long[] inPool = FreeBlockPool.blocks(u, 1, 1);
            assertEquals(B, inPool.length);
            long victim = inPool[B / 2];
            long head = FreeBlockPool.headPointer(u, 1, 1, FreeBlockPool.homeShard(t));
            long headWord = word(c, head);
            stray(c, BlockHeader.address(victim), 0x5555);
            for (int attempt = 0; attempt < 2; attempt++) {
                CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, () -> new RemoteAllocator(u).allocate(16, 1));
                assertEquals(BlockHeader.address(victim), e.word());
                assertEquals(0x5555, e.value());
                assertTrue(e.getMessage().contains(RemotePtr.toString(victim)), e.getMessage());
                assertEquals(headWord, word(c, head), "the head is not advanced past garbage");
            }
            stray(c, BlockHeader.address(victim), BlockHeader.encode(victim, BlockHeader.FREE, 1, 1));
            long link = word(c, victim);
            stray(c, victim, FreeBlockPool.encode(RemotePtr.NULL, 7));
            CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, () -> new RemoteAllocator(u).allocate(16, 1));
            assertEquals(victim, e.word(), "a link that breaks the batch's count names the block's link word");
            assertEquals(headWord, word(c, head));
            stray(c, victim, link);
            stray(c, head, FreeBlockPool.encode(RemotePtr.offset(t.segmentBase(1, 0), 8), 3));
            CorruptedControlBlockException h = assertThrows(CorruptedControlBlockException.class,
                    () -> new RemoteAllocator(u).allocate(16, 1), "a head pointing into the control words");
            assertEquals(head, h.word());
            stray(c, head, headWord);
            RemoteAllocator b = new RemoteAllocator(u);
            Set<Long> got = new HashSet<>();
            for (int i = 0; i < B; i++) {
                got.add(b.allocate(16, 1));
            }
            assertEquals(Arrays.stream(inPool).boxed().collect(Collectors.toSet()), got, "repaired, the pool hands out its batch");
        }
    }

    /**
     * A thread that dies loses what its caches hold, at most {@link RemoteAllocator#CACHE_CAPACITY}
     * blocks of a class on a node, and leaves the pool intact even when it had written the links of a
     * push whose compare-and-swap it never made.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLoseAtMostTheCachedBlocksAndKeepThePoolWhenAThreadDies(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread u = c.thread(2)) {
            Set<Long> freed = new HashSet<>();
            int cached;
            try (ComputeThread t = c.thread(0)) {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int i = 0; i < 3 * B + 5; i++) {
                    freed.add(a.allocate(200, 1));
                }
                for (long p : freed) {
                    a.deallocate(p, 200);
                }
                cached = a.cachedBlockCount();
                assertTrue(cached > 0 && cached <= RemoteAllocator.CACHE_CAPACITY, "cached " + cached);
            }
            Set<Long> inPool = pooled(u, 1, SizeClasses.classOf(200));
            assertEquals(freed.size() - cached, inPool.size(), "the pool holds every block not in the dead thread's cache");
            Set<Long> lost = new HashSet<>(freed);
            lost.removeAll(inPool);
            long[] lostBlocks = lost.stream().mapToLong(Long::longValue).toArray();
            for (int i = 0; i + 1 < Math.min(B, lostBlocks.length); i++) {
                stray(c, lostBlocks[i], FreeBlockPool.encode(lostBlocks[i + 1], Math.min(B, lostBlocks.length) - i));
            }
            assertEquals(inPool, pooled(u, 1, SizeClasses.classOf(200)), "links written without the head's CAS change no pool");
            RemoteAllocator b = new RemoteAllocator(u);
            Set<Long> got = new HashSet<>();
            for (int i = 0; i < inPool.size(); i++) {
                got.add(b.allocate(200, 1));
            }
            assertEquals(inPool, got);
            for (long p : lost) {
                assertEquals(BlockHeader.FREE, BlockHeader.state(word(c, BlockHeader.address(p))), "a lost block stays free, never handed out");
            }
        }
    }

    /**
     * Threads of three nodes allocate and free blocks of random sizes on random nodes, some freed by
     * another thread than the one that allocated them, with random yields and NIC atomics that yield
     * inside. No block is ever live twice; at quiescence, after every thread flushed, every block
     * ever handed out is either live or in exactly one pool, and allocations = frees + live.
     */
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAccountForEveryBlockAfterAMixedMultiNodeRun(Function<SimOptions, Fabric> make) throws Exception {
        int[] nodes = {0, 0, 1, 1, 2, 2};
        int operations = 8000;
        Set<Long> live = ConcurrentHashMap.newKeySet();
        Map<Long, Integer> everHandedOut = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<long[]> handoff = new ConcurrentLinkedQueue<>();
        AtomicLong allocations = new AtomicLong();
        AtomicLong frees = new AtomicLong();
        long[] sizes = {8, 64, 100, 2048};
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3,
                b -> b.threadsPerNode(3).segmentSize(1 << 20).segmentCount(2), Duration.ofSeconds(240))) {
            c.runOnThreads(nodes, (index, t) -> {
                SplittableRandom random = new SplittableRandom(1234 + index);
                RemoteAllocator a = new RemoteAllocator(t);
                List<long[]> mine = new ArrayList<>();
                for (int k = 0; k < operations; k++) {
                    if (random.nextInt(8) == 0) {
                        Thread.yield();
                    }
                    if (random.nextInt(1000) == 0) {
                        a.flush();
                    }
                    int choice = random.nextInt(10);
                    boolean allocate = mine.size() < 8 || mine.size() < 64 && choice < 5;
                    if (allocate) {
                        long size = sizes[random.nextInt(sizes.length)] - random.nextInt(4);
                        long p = a.allocate(size, random.nextInt(3));
                        allocations.incrementAndGet();
                        assertTrue(live.add(p), RemotePtr.toString(p) + " handed out while live");
                        Integer cls = everHandedOut.putIfAbsent(p, SizeClasses.classOf(size));
                        assertTrue(cls == null || cls == SizeClasses.classOf(size), "a block changed class");
                        long[] entry = {p, size};
                        if (random.nextInt(4) == 0) {
                            handoff.add(entry);
                        } else {
                            mine.add(entry);
                        }
                    } else {
                        long[] entry = choice < 8 ? null : handoff.poll();
                        if (entry == null) {
                            entry = mine.remove(random.nextInt(mine.size()));
                        }
                        assertTrue(live.remove(entry[0]));
                        a.deallocate(entry[0], entry[1]);
                        frees.incrementAndGet();
                    }
                }
                a.flush();
                assertEquals(0, a.cachedBlockCount());
            });
            assertTrue(frees.get() > 20_000 && allocations.get() > 20_000, "the run mixed allocations and frees");
            assertEquals(allocations.get(), frees.get() + live.size(), "allocated = freed + live");
            try (ComputeThread t = c.thread(0)) {
                Map<Long, Integer> inPools = new HashMap<>();
                for (int node = 0; node < 3; node++) {
                    for (int cls = 0; cls < SizeClasses.COUNT; cls++) {
                        for (long p : FreeBlockPool.blocks(t, node, cls)) {
                            assertEquals(node, RemotePtr.node(p));
                            assertTrue(inPools.put(p, cls) == null, RemotePtr.toString(p) + " is in the pools twice");
                            assertTrue(!live.contains(p), RemotePtr.toString(p) + " is live and in a pool");
                            assertEquals(everHandedOut.get(p), cls, RemotePtr.toString(p) + " is in the pool of its class");
                        }
                    }
                }
                assertEquals(everHandedOut.size(), inPools.size() + live.size(),
                        "every block ever handed out is live or in a pool: nothing leaked");
                for (long p : live) {
                    assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(word(c, BlockHeader.address(p))));
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowExhaustedWhenPoolIsEmptyAndSegmentsAreFullButReuseWhatIsFreed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.segmentSize(4096).segmentCount(2));
             ComputeThread t = c.thread(0); ComputeThread u = c.thread(1)) {
            RemoteAllocator a = new RemoteAllocator(t);
            List<Long> blocks = new ArrayList<>();
            assertThrows(AllocationExhaustedException.class, () -> {
                while (true) {
                    blocks.add(a.allocate(1024, 1));
                }
            });
            assertEquals(5, blocks.size(), "segment 0 holds 2 blocks of 8 + 1024 bytes after its control block, segment 1 holds 3");
            for (long p : blocks) {
                a.deallocate(p, 1024);
            }
            RemoteAllocator b = new RemoteAllocator(u);
            assertThrows(AllocationExhaustedException.class, () -> b.allocate(1024, 1), "the freed blocks are in a's cache");
            a.flush();
            Set<Long> got = new HashSet<>();
            for (int i = 0; i < blocks.size(); i++) {
                got.add(b.allocate(1000, 1));
            }
            assertEquals(new HashSet<>(blocks), got);
            assertThrows(AllocationExhaustedException.class, () -> b.allocate(1024, 1));
        }
    }
}
