package io.remus.core;

import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.error.InvalidFreeException;
import io.remus.core.fabric.Fabric;
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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The allocator refuses what it did not hand out: every bad free is a typed error that changes
 * nothing, a double free (also two racing ones) is detected, and a watermark or header changed by a
 * stray write never makes it hand out memory outside its segment, the control block, or one block
 * twice.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteAllocatorSafetyTest {
    /** Where segment 0's heap starts in {@link TestCluster#of}'s three-node cluster. */
    private static final long HEAP_0 = ControlBlock.heapStart(0, 3);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static long word(TestCluster c, long ptr) {
        return c.raw(ptr, 8).get(ValueLayout.JAVA_LONG, 0);
    }

    private static void stray(TestCluster c, long ptr, long value) {
        c.raw(ptr, 8).set(ValueLayout.JAVA_LONG, 0, value);
    }

    private static MemorySegment controlWords(TestCluster c, ComputeThread t, int node) {
        return MemorySegment.ofArray(c.raw(t.segmentBase(node, 0), HEAP_0).toArray(ValueLayout.JAVA_BYTE));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAndChangeNothingWhenFreeingTheControlWordsOrAnythingBeforeTheFirstBlock(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long first = a.allocate(8, 1);
            assertEquals(RemotePtr.offset(t.segmentBase(1, 0), HEAP_0 + BlockHeader.SIZE), first,
                    "the first block sits right behind its header at the heap's start");
            MemorySegment before = controlWords(c, t, 1);
            for (int s = 0; s < 2; s++) {
                for (long offset = 0; offset < ControlBlock.heapStart(s, 3) + BlockHeader.SIZE; offset += 8) {
                    long ptr = RemotePtr.offset(t.segmentBase(1, s), offset);
                    for (long size : new long[] {8, 64, 4096}) {
                        InvalidFreeException e = assertThrows(InvalidFreeException.class, () -> a.deallocate(ptr, size),
                                "segment " + s + " offset " + offset);
                        assertEquals(ptr, e.pointer());
                        assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
                    }
                }
            }
            assertEquals(-1, controlWords(c, t, 1).mismatch(before), "a refused free changes no control word");
            long next = a.allocate(8, 1);
            assertEquals(RemotePtr.offset(first, 16), next, "allocation goes on from where it was");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseFreeingMemoryThatWasNeverHandedOut(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(256, 2);
            SplittableRandom random = new SplittableRandom(7);
            for (int k = 0; k < 32; k++) {
                t.write(RemotePtr.offset(p, 8L * k), random.nextLong());
            }
            t.write(RemotePtr.offset(p, 64), 0);
            for (long inside = 8; inside < 256; inside += 8) {
                long ptr = RemotePtr.offset(p, inside);
                assertThrows(InvalidFreeException.class, () -> a.deallocate(ptr, 8), "the inside of a block, offset " + inside);
            }
            long beyond = RemotePtr.offset(t.segmentBase(2, 1), 8192);
            InvalidFreeException e = assertThrows(InvalidFreeException.class, () -> a.deallocate(beyond, 8), "above the watermark");
            assertTrue(e.getMessage().contains("never allocated"), e.getMessage());
            long segmentEnd = RemotePtr.offset(t.segmentBase(2, 1), t.segmentLength(2, 1));
            assertThrows(InvalidFreeException.class, () -> a.deallocate(RemotePtr.offset(segmentEnd, -8), 64),
                    "a block that would run past the segment's end");
            assertThrows(InvalidFreeException.class, () -> a.deallocate(RemotePtr.offset(segmentEnd, 4096), 8), "outside every segment");
            assertThrows(BadArgumentException.class, () -> a.deallocate(RemotePtr.of(7, 4096), 8), "not a memory node");
            a.deallocate(p, 256);
            assertEquals(p, a.allocate(200, 2), "the real block is still a block");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAMisalignedPointerNamingIt(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(64, 1);
            for (int off = 1; off < 8; off++) {
                long ptr = RemotePtr.offset(p, off);
                InvalidFreeException e = assertThrows(InvalidFreeException.class, () -> a.deallocate(ptr, 64));
                assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)) && e.getMessage().contains("aligned"), e.getMessage());
            }
            a.deallocate(p, 64);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAFreeWithTheSizeOfAnotherClass(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(100, 1);
            for (long wrong : new long[] {8, 64, 129, 256, 4096}) {
                InvalidFreeException e = assertThrows(InvalidFreeException.class, () -> a.deallocate(p, wrong));
                assertTrue(e.getMessage().contains("128 bytes") && e.getMessage().contains(Long.toString(wrong)), e.getMessage());
            }
            long header = word(c, BlockHeader.address(p));
            assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(header), "a refused free leaves the block allocated");
            a.deallocate(p, 128);
            assertEquals(p, a.allocate(65, 1), "any size of the class frees it");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseASecondFreeAndNeverHandTheBlockOutTwice(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread other = c.thread(2)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(48, 1);
            a.deallocate(p, 48);
            DoubleFreeException e = assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 48));
            assertEquals(p, e.pointer());
            RemoteAllocator b = new RemoteAllocator(other);
            assertThrows(DoubleFreeException.class, () -> b.deallocate(p, 64), "another thread's free of a free block");
            assertEquals(p, a.allocate(48, 1), "the block is in one cache once");
            assertNotEquals(p, a.allocate(48, 1));
            b.deallocate(p, 48);
            assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 48), "freed by the other thread now");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStepTheIncarnationOnEveryFreeAndReuse(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(32, 2);
            long header = BlockHeader.address(p);
            for (int round = 0; round < 3; round++) {
                long h = word(c, header);
                assertTrue(BlockHeader.isHeaderOf(p, h));
                assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(h));
                assertEquals(2 * round, BlockHeader.incarnation(h));
                assertEquals(SizeClasses.classOf(32), BlockHeader.sizeClass(h));
                a.deallocate(p, 32);
                h = word(c, header);
                assertEquals(BlockHeader.FREE, BlockHeader.state(h));
                assertEquals(2 * round + 1, BlockHeader.incarnation(h));
                assertEquals(p, a.allocate(32, 2));
            }
            assertTrue(!BlockHeader.isHeaderOf(RemotePtr.offset(p, 64), word(c, header)), "a header names its own block only");
        }
    }

    /**
     * Four threads free each block at once. Every operation takes 2 ms to execute on the simulator,
     * so all four READs of the header see it allocated before any compare-and-swap lands, and only
     * the compare-and-swap decides (a free that wrote the header instead would let all four succeed).
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLetExactlyOneOfRacingFreesOfABlockSucceed(Function<SimOptions, Fabric> make) throws Exception {
        int blocks = 40;
        int[] nodes = {0, 1, 2, 2};
        long[] ptrs = new long[blocks];
        SimOptions slow = SimOptions.defaults().withYieldInsideNicAtomics(true)
                .withExecutionLatencyNanos(TimeUnit.MILLISECONDS.toNanos(2));
        try (TestCluster c = new TestCluster(make, slow, 3, b -> b.threadsPerNode(2))) {
            try (ComputeThread t = c.thread(0)) {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int i = 0; i < blocks; i++) {
                    ptrs[i] = a.allocate(24, 1 + i % 2);
                }
            }
            AtomicIntegerArray successes = new AtomicIntegerArray(blocks);
            AtomicIntegerArray refusals = new AtomicIntegerArray(blocks);
            CyclicBarrier together = new CyclicBarrier(nodes.length);
            c.runOnThreads(nodes, (i, t) -> {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int k = 0; k < blocks; k++) {
                    together.await(30, TimeUnit.SECONDS);
                    try {
                        a.deallocate(ptrs[k], 24);
                        successes.incrementAndGet(k);
                    } catch (DoubleFreeException e) {
                        refusals.incrementAndGet(k);
                    }
                }
            });
            for (int k = 0; k < blocks; k++) {
                assertEquals(1, successes.get(k), "block " + k + " freed by exactly one thread");
                assertEquals(nodes.length - 1, refusals.get(k), "block " + k + ": the others get DoubleFreeException");
                long h = word(c, BlockHeader.address(ptrs[k]));
                assertEquals(BlockHeader.FREE, BlockHeader.state(h));
                assertEquals(1, BlockHeader.incarnation(h), "freed once");
            }
        }
    }

    /**
     * A block is handed out again by a compare-and-swap of its header; a free through a stale pointer that
     * races it reads the header as free (refused), torn (refused) or as the reused block's (then it
     * frees that block: a stale pointer is not detectable). Whichever, the header stays a valid header
     * of the block, in the state the outcome says. In even rounds the stale free starts 0 to 3 ms
     * after the reuse, each operation taking 1 ms on the simulator, with torn stores; in odd rounds it
     * starts once the reuse has returned, so it must succeed.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLeaveAValidHeaderWhenAStaleFreeRacesTheBlocksReuse(Function<SimOptions, Fabric> make) throws Exception {
        int rounds = 60;
        SimOptions torn = SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true)
                .withYieldInsideNicAtomics(true).withExecutionLatencyNanos(TimeUnit.MILLISECONDS.toNanos(1));
        try (TestCluster c = new TestCluster(make, torn, 3, b -> b.threadsPerNode(2))) {
            long[] blocks = new long[rounds];
            long[] headers = new long[rounds];
            boolean[] staleFreed = new boolean[rounds];
            CyclicBarrier together = new CyclicBarrier(2);
            c.runOnThreads(new int[] {0, 2}, (i, t) -> {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int r = 0; r < rounds; r++) {
                    if (i == 0) {
                        long p = a.allocate(16, 1);
                        a.deallocate(p, 16);
                        blocks[r] = p;
                        together.await(30, TimeUnit.SECONDS);
                        assertEquals(p, a.allocate(16, 1), "the cache hands back the block it just took");
                        if (r % 2 == 1) {
                            together.await(30, TimeUnit.SECONDS);
                        }
                        together.await(30, TimeUnit.SECONDS);
                        headers[r] = t.read(BlockHeader.address(p));
                    } else {
                        together.await(30, TimeUnit.SECONDS);
                        if (r % 2 == 1) {
                            together.await(30, TimeUnit.SECONDS);
                        } else {
                            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(r * 50L % 3000));
                        }
                        try {
                            a.deallocate(blocks[r], 16);
                            staleFreed[r] = true;
                        } catch (InvalidFreeException refused) {
                            staleFreed[r] = false;
                        }
                        together.await(30, TimeUnit.SECONDS);
                    }
                }
            });
            for (int r = 0; r < rounds; r++) {
                long h = headers[r];
                if (r % 2 == 1) {
                    assertTrue(staleFreed[r], "round " + r + ": a free after the reuse frees the reused block");
                }
                assertTrue(BlockHeader.isHeaderOf(blocks[r], h), "round " + r + ": header 0x" + Long.toHexString(h));
                assertEquals(staleFreed[r] ? BlockHeader.FREE : BlockHeader.ALLOCATED, BlockHeader.state(h),
                        "round " + r + ": " + BlockHeader.describe(h) + ", stale free " + (staleFreed[r] ? "succeeded" : "refused"));
            }
        }
    }

    /**
     * Of two racing frees of one block's life (each names the life by its header, so a free that comes after the
     * block's reuse is refused), the winner hands the block out again at once, while the loser's failed
     * compare-and-swap of its header may still be in flight: the simulator's NIC atomics yield between their load and
     * their store, and a failed one stores back the word it loaded. The reuse is a compare-and-swap too, so it is
     * ordered with that store and never undone: after every round the header is the reused block's, allocated.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNeverLoseAReuseToTheFailedCompareAndSwapOfARacingFree(Function<SimOptions, Fabric> make) throws Exception {
        int rounds = 300;
        SimOptions hostile = SimOptions.defaults().withYieldInsideNicAtomics(true);
        try (TestCluster c = new TestCluster(make, hostile, 3, b -> b.threadsPerNode(2))) {
            long[] blocks = new long[rounds];
            long[] headers = new long[rounds];
            long[] lives = new long[rounds];
            AtomicIntegerArray winners = new AtomicIntegerArray(rounds);
            CyclicBarrier together = new CyclicBarrier(2);
            c.runOnThreads(new int[] {0, 2}, (i, t) -> {
                RemoteAllocator a = new RemoteAllocator(t);
                for (int r = 0; r < rounds; r++) {
                    if (i == 0) {
                        blocks[r] = a.allocate(16, 1);
                        lives[r] = t.read(BlockHeader.address(blocks[r]));
                    }
                    together.await(30, TimeUnit.SECONDS);
                    try {
                        a.deallocate(blocks[r], 16, lives[r]);
                        winners.incrementAndGet(r);
                        assertEquals(blocks[r], a.allocate(16, 1), "the winner's cache hands the block back at once");
                    } catch (DoubleFreeException lost) {
                        // the other thread freed it
                    }
                    together.await(30, TimeUnit.SECONDS);
                    if (i == 0) {
                        headers[r] = t.read(BlockHeader.address(blocks[r]));
                    }
                }
            });
            for (int r = 0; r < rounds; r++) {
                assertEquals(1, winners.get(r), "round " + r + ": one free succeeded");
                long h = headers[r];
                assertTrue(BlockHeader.isHeaderOf(blocks[r], h), "round " + r + ": header 0x" + Long.toHexString(h));
                assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(h), "round " + r + ": " + BlockHeader.describe(h)
                        + ", but the winner holds the block");
            }
        }
    }

    static Stream<Long> badWatermarks() {
        return Stream.of(0L, 8L, -64L, HEAP_0 - 8, HEAP_0 + 3,
                (64L << 10) + RemoteAllocator.OVERSHOOT_LIMIT + 8, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowCorruptedControlBlockNamingTheValueWhenAStrayWriteHitTheWatermark(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long watermark = RemotePtr.offset(t.segmentBase(1, 0), ControlBlock.WATERMARK);
            for (long bad : badWatermarks().toList()) {
                stray(c, watermark, bad);
                RemoteAllocator a = new RemoteAllocator(t);
                CorruptedControlBlockException e = assertThrows(CorruptedControlBlockException.class, () -> a.allocate(8, 1),
                        "watermark " + bad);
                assertEquals(bad, e.value());
                assertEquals(watermark, e.word());
                assertTrue(e.getMessage().contains(Long.toString(bad)), e.getMessage());
                assertEquals(bad, word(c, watermark), "nothing was carved from a corrupted watermark");
            }
            long pastTheEnd = (64L << 10) + 8 * RemoteAllocator.RUN_BYTES;
            stray(c, watermark, pastTheEnd);
            long next = new RemoteAllocator(t).allocate(8, 1);
            assertEquals(t.segmentBase(1, 1), RemotePtr.offset(next, -(RemotePtr.address(next) - RemotePtr.address(t.segmentBase(1, 1)))),
                    "a watermark that fetch-and-adds carried past the end is a full segment, not a corrupted one: the next"
                    + " segment serves");
            assertEquals(pastTheEnd, word(c, watermark), "a first look is a compare-and-swap, which changes nothing here");
            stray(c, watermark, HEAP_0);
            long p = new RemoteAllocator(t).allocate(8, 1);
            assertEquals(RemotePtr.offset(t.segmentBase(1, 0), HEAP_0 + BlockHeader.SIZE), p);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNotHandOutAllocatedMemoryAgainWhenTheWatermarkIsMovedBack(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long first = a.allocate(64, 1);
            a.allocate(64, 1);
            long watermark = RemotePtr.offset(t.segmentBase(1, 0), ControlBlock.WATERMARK);
            stray(c, watermark, HEAP_0);
            while (a.reservedBlockCount() > 0) {
                a.allocate(64, 1);
            }
            CorruptedControlBlockException back = assertThrows(CorruptedControlBlockException.class, () -> a.allocate(64, 1),
                    "this allocator saw the watermark higher");
            assertTrue(back.getMessage().contains("backwards"), back.getMessage());
            RemoteAllocator fresh = new RemoteAllocator(t);
            CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, () -> fresh.allocate(64, 1),
                    "a fresh allocator finds the first block's header where a new block would go");
            assertEquals(BlockHeader.address(first), e.word());
            assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(word(c, BlockHeader.address(first))), "the live block is untouched");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepBlocksDisjointInsideTheirSegmentsWhenSizesAndFreesAreMixed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.segmentSize(16 << 10).segmentCount(2));
             ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            SplittableRandom random = new SplittableRandom(42);
            TreeMap<Long, Long> live = new TreeMap<>();
            List<long[]> freed = new ArrayList<>();
            for (int k = 0; k < 2000; k++) {
                if (!live.isEmpty() && random.nextInt(3) == 0) {
                    long p = random.nextBoolean() ? live.firstKey() : live.lastKey();
                    long size = live.remove(p);
                    a.deallocate(p, size);
                    freed.add(new long[] {p, size});
                    continue;
                }
                long size = 1 + random.nextInt(random.nextBoolean() ? 64 : 2048);
                long p;
                try {
                    p = a.allocate(size, 1);
                } catch (AllocationExhaustedException full) {
                    continue;
                }
                assertEquals(0, RemotePtr.address(p) % 8);
                long start = RemotePtr.address(p) - BlockHeader.SIZE;
                long end = RemotePtr.address(p) + SizeClasses.size(SizeClasses.classOf(size));
                boolean inHeap = false;
                for (int s = 0; s < 2; s++) {
                    long base = RemotePtr.address(t.segmentBase(1, s));
                    inHeap |= start >= base + ControlBlock.heapStart(s, 3) && end <= base + t.segmentLength(1, s);
                }
                assertTrue(inHeap, RemotePtr.toString(p) + " lies inside a segment's heap");
                for (var n : new java.util.Map.Entry[] {live.floorEntry(p), live.ceilingEntry(p)}) {
                    if (n == null) {
                        continue;
                    }
                    long q = (Long) n.getKey();
                    long qStart = RemotePtr.address(q) - BlockHeader.SIZE;
                    long qEnd = RemotePtr.address(q) + SizeClasses.size(SizeClasses.classOf((Long) n.getValue()));
                    assertTrue(end <= qStart || qEnd <= start, RemotePtr.toString(p) + " overlaps live block " + RemotePtr.toString(q));
                }
                live.put(p, size);
            }
            assertTrue(freed.size() > 100, "the mix freed blocks");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFreeOnlyTheBlockLifeItsOwnerKnowsWhenGivenItsHeader(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(64, 1);
            long first = word(c, BlockHeader.address(p));
            a.deallocate(p, 64, first);
            assertEquals(BlockHeader.FREE, BlockHeader.state(word(c, BlockHeader.address(p))));
            assertEquals(p, a.allocate(64, 1), "the cache hands the block out again");
            long second = word(c, BlockHeader.address(p));
            assertNotEquals(first, second, "a new life, a new incarnation");

            DoubleFreeException e = assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 64, first));
            assertEquals(p, e.pointer());
            assertEquals(second, word(c, BlockHeader.address(p)), "the block's new life is not freed by a stale owner");
            BadArgumentException bad = assertThrows(BadArgumentException.class, () -> a.deallocate(p, 64, 0x1234L));
            assertTrue(bad.getMessage().contains("0x1234"), bad.getMessage());
            long freed = BlockHeader.encode(p, BlockHeader.FREE, BlockHeader.sizeClass(second), BlockHeader.incarnation(second));
            assertThrows(BadArgumentException.class, () -> a.deallocate(p, 64, freed), "a free header names no life to free");
            assertEquals(second, word(c, BlockHeader.address(p)), "refusals change nothing");

            a.deallocate(p, 64, second);
            assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 64, second), "that life was freed once");
        }
    }
}
