package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemoteStruct} over a fabric: every access by field name moves the right bytes, posts exactly
 * the operations of the hand-written {@code RemotePtr.offset} arithmetic, allocates nothing, and bad
 * input is refused before anything is posted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteStructTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static final StructLayout PAIR_LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("count"),
            ValueLayout.JAVA_LONG.withName("next"),
            ValueLayout.JAVA_INT.withName("tag"),
            MemoryLayout.paddingLayout(4)).withName("pair");
    private static final RemoteStruct PAIR = RemoteStruct.of(PAIR_LAYOUT);
    private static final RemoteStruct.Field COUNT = PAIR.field("count");
    private static final RemoteStruct.Field NEXT = PAIR.field("next");
    private static final VarHandle TAG = PAIR_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("tag"));
    private static final int SIZE = 24;

    private static long sink;

    /** A struct in scratch memory of {@code node}, {@code index} structs from a fixed place of its second segment. */
    private static long scratch(ComputeThread t, int node, int index) {
        return RemotePtr.offset(t.segmentBase(node, 1), 4096 + 64L * index);
    }

    /** Everything {@link ComputeThread}'s counters say, at one moment. */
    private record Counters(long reads, long writes, long compareAndSwaps, long fetchAndAdds, long bytesRead,
                            long bytesWritten, long roundTrips) {
        static Counters of(ComputeThread t) {
            return new Counters(t.postedOperations(Opcode.READ), t.postedOperations(Opcode.WRITE),
                    t.postedOperations(Opcode.COMPARE_AND_SWAP), t.postedOperations(Opcode.FETCH_AND_ADD),
                    t.bytesRead(), t.bytesWritten(), t.roundTrips());
        }

        Counters minus(Counters o) {
            return new Counters(reads - o.reads, writes - o.writes, compareAndSwaps - o.compareAndSwaps,
                    fetchAndAdds - o.fetchAndAdds, bytesRead - o.bytesRead, bytesWritten - o.bytesWritten,
                    roundTrips - o.roundTrips);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReadWriteSwapAndAddEachFieldByName(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node : new int[] {1, 0}) {
                long p = scratch(t, node, 0);
                COUNT.set(t, p, 5);
                NEXT.set(t, p, 7);
                assertEquals(5, COUNT.get(t, p), "node " + node);
                assertEquals(7, NEXT.get(t, p), "node " + node);
                MemorySegment raw = c.raw(p, SIZE);
                assertEquals(5, raw.get(ValueLayout.JAVA_LONG, 0), "count at offset 0 of node " + node);
                assertEquals(7, raw.get(ValueLayout.JAVA_LONG, 8), "next at offset 8 of node " + node);

                assertEquals(5, COUNT.compareAndSwap(t, p, 5, 9), "a swap that happens returns the expected value");
                assertEquals(9, COUNT.compareAndSwap(t, p, 5, 11), "a swap that fails returns the current value");
                assertEquals(9, COUNT.get(t, p));
                assertEquals(9, COUNT.fetchAndAdd(t, p, 3));
                assertEquals(12, COUNT.get(t, p));
                assertEquals(7, NEXT.get(t, p), "the neighbour field is untouched");

                assertEquals(12, t.await(COUNT.getAsync(t, p, false)));
                t.await(NEXT.setAsync(t, p, 70, false));
                assertEquals(12, t.await(COUNT.compareAndSwapAsync(t, p, 12, 13, true)));
                assertEquals(70, t.await(NEXT.fetchAndAddAsync(t, p, 1, false)));
                assertEquals(13, raw.get(ValueLayout.JAVA_LONG, 0), "node " + node);
                assertEquals(71, raw.get(ValueLayout.JAVA_LONG, 8), "node " + node);

                t.batch().fetchAndAdd(COUNT.at(p), 2, 0).compareAndSwap(NEXT.at(p), 71, 72, 8).execute();
                assertEquals(15, COUNT.get(t, p), "a batch entry on the field's pointer");
                assertEquals(72, NEXT.get(t, p));
                assertEquals(RemotePtr.offset(p, 8), NEXT.at(p));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldMoveTheWholeStructInOneOperation(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node : new int[] {2, 0}) {
                long p = scratch(t, node, 1);
                MemorySegment out = MemorySegment.ofArray(new long[SIZE / 8]);
                COUNT.set(out, 21);
                NEXT.set(out, 22);
                TAG.set(out, 0L, 23);
                Counters before = Counters.of(t);
                PAIR.write(t, p, out);
                assertEquals(new Counters(0, 1, 0, 0, 0, SIZE, 1), Counters.of(t).minus(before), "one WRITE, node " + node);
                assertEquals(21, COUNT.get(t, p));
                assertEquals(22, NEXT.get(t, p));
                assertEquals(23, c.raw(p, SIZE).get(ValueLayout.JAVA_INT, 16), "the int member travelled with the struct");

                MemorySegment in = MemorySegment.ofArray(new long[SIZE / 8 + 1]);
                in.set(ValueLayout.JAVA_LONG_UNALIGNED, SIZE, -1);
                before = Counters.of(t);
                PAIR.read(t, p, in);
                Counters read = node == t.nodeId() ? new Counters(0, 0, 0, 0, 0, 0, 0) : new Counters(1, 0, 0, 0, SIZE, 0, 1);
                assertEquals(read, Counters.of(t).minus(before), "one READ of the struct, none on the own node, node " + node);
                assertEquals(21, COUNT.get(in));
                assertEquals(22, NEXT.get(in));
                assertEquals(23, (int) TAG.get(in, 0L));
                assertEquals(-1, in.get(ValueLayout.JAVA_LONG_UNALIGNED, SIZE), "bytes past the struct are left alone");

                long q = scratch(t, node, 2);
                t.buffer().fill((byte) 0);
                PAIR.read(t, p, 256L);
                MemorySegment staged = t.buffer().asSlice(256, SIZE);
                assertEquals(21, COUNT.get(staged), "zero-copy into the buffer");
                COUNT.set(staged, 31);
                before = Counters.of(t);
                PAIR.write(t, q, 256L);
                assertEquals(new Counters(0, 1, 0, 0, 0, SIZE, 1), Counters.of(t).minus(before), "zero-copy WRITE");
                assertArrayEquals(staged.toArray(ValueLayout.JAVA_BYTE), c.raw(q, SIZE).toArray(ValueLayout.JAVA_BYTE));

                t.buffer().fill((byte) 0);
                long r = PAIR.readAsync(t, q, 512, false);
                t.await(r);
                assertEquals(31, COUNT.get(t.buffer().asSlice(512, SIZE)));
                NEXT.set(t.buffer().asSlice(512, SIZE), 32);
                t.await(PAIR.writeAsync(t, p, 512, true));
                assertEquals(32, NEXT.get(t, p));
                assertEquals(31, COUNT.get(t, p));
            }
        }
    }

    /** The operations of {@link #byField}, written with offset arithmetic on the compute thread. */
    private static void byHand(ComputeThread t, long p, MemorySegment local) {
        t.write(RemotePtr.offset(p, 0), 1);
        t.write(RemotePtr.offset(p, 8), 2);
        sink += t.read(RemotePtr.offset(p, 0));
        sink += t.read(RemotePtr.offset(p, 8));
        sink += t.compareAndSwap(RemotePtr.offset(p, 0), 1, 3);
        sink += t.compareAndSwap(RemotePtr.offset(p, 8), 99, 4);
        sink += t.fetchAndAdd(RemotePtr.offset(p, 8), 5);
        long a = t.readWordAsync(RemotePtr.offset(p, 0), false);
        long b = t.fetchAndAddAsync(RemotePtr.offset(p, 8), 1, false);
        long d = t.compareAndSwapAsync(RemotePtr.offset(p, 0), 3, 6, true);
        long e = t.writeWordAsync(RemotePtr.offset(p, 8), 7, false);
        sink += t.await(a) + t.await(b) + t.await(d) + t.await(e);
        t.read(p, local);
        t.write(p, local);
        t.read(p, 128, SIZE);
        t.write(p, 128, SIZE);
        t.await(t.readAsync(p, 128, SIZE, false));
        t.await(t.writeAsync(p, 128, SIZE, false));
    }

    private static void byField(ComputeThread t, long p, MemorySegment local) {
        COUNT.set(t, p, 1);
        NEXT.set(t, p, 2);
        sink += COUNT.get(t, p);
        sink += NEXT.get(t, p);
        sink += COUNT.compareAndSwap(t, p, 1, 3);
        sink += NEXT.compareAndSwap(t, p, 99, 4);
        sink += NEXT.fetchAndAdd(t, p, 5);
        long a = COUNT.getAsync(t, p, false);
        long b = NEXT.fetchAndAddAsync(t, p, 1, false);
        long d = COUNT.compareAndSwapAsync(t, p, 3, 6, true);
        long e = NEXT.setAsync(t, p, 7, false);
        sink += t.await(a) + t.await(b) + t.await(d) + t.await(e);
        PAIR.read(t, p, local);
        PAIR.write(t, p, local);
        PAIR.read(t, p, 128L);
        PAIR.write(t, p, 128L);
        t.await(PAIR.readAsync(t, p, 128, false));
        t.await(PAIR.writeAsync(t, p, 128, false));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldPostExactlyTheOperationsOfOffsetArithmetic(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node : new int[] {1, 0}) {
                long handWritten = scratch(t, node, 3);
                long typed = scratch(t, node, 4);
                MemorySegment local = MemorySegment.ofArray(new byte[SIZE]);
                Counters start = Counters.of(t);
                byHand(t, handWritten, local);
                Counters hand = Counters.of(t).minus(start);
                start = Counters.of(t);
                byField(t, typed, local);
                Counters field = Counters.of(t).minus(start);
                assertEquals(hand, field, "node " + node);
                assertArrayEquals(c.raw(handWritten, SIZE).toArray(ValueLayout.JAVA_BYTE),
                        c.raw(typed, SIZE).toArray(ValueLayout.JAVA_BYTE), "the same bytes, node " + node);
                if (node != t.nodeId()) {
                    assertEquals(new Counters(6, 6, 3, 2, 3 * 8 + 3 * SIZE, 3 * 8 + 3 * SIZE, 14), field,
                            "one operation per access on a remote node");
                }
            }
        }
    }

    /** @return iterations of {@link #workload} run first, for the JIT */
    int warmupIterations() {
        return 20_000;
    }

    /** @return iterations of {@link #workload} measured */
    int measuredIterations() {
        return 10_000;
    }

    private static void workload(ComputeThread t, long p, long local, MemorySegment copy, int iterations) {
        for (int i = 0; i < iterations; i++) {
            COUNT.set(t, p, i);
            sink += COUNT.get(t, p);
            sink += COUNT.compareAndSwap(t, p, i, i + 1);
            sink += NEXT.fetchAndAdd(t, p, 1);
            sink += NEXT.get(t, local);
            sink += NEXT.fetchAndAdd(t, local, 1);
            long a = COUNT.getAsync(t, p, false);
            long b = NEXT.compareAndSwapAsync(t, p, 0, 0, false);
            long d = COUNT.fetchAndAddAsync(t, local, 1, false);
            long e = NEXT.setAsync(t, p, i, false);
            sink += t.await(a) + t.await(b) + t.await(d) + t.await(e);
            PAIR.read(t, p, copy);
            sink += COUNT.get(copy);
            NEXT.set(copy, i);
            PAIR.write(t, p, copy);
            PAIR.read(t, p, 64L);
            PAIR.write(t, p, 64L);
            t.batch().fetchAndAdd(COUNT.at(p), 1, 200).read(p, 256, SIZE).execute();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAllocateNothingPerAccessInSteadyState(Function<SimOptions, Fabric> make) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().threadId();
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long p = scratch(t, 2, 5);
            long local = scratch(t, 0, 5);
            MemorySegment copy = MemorySegment.ofArray(new byte[SIZE]);
            workload(t, p, local, copy, warmupIterations());
            long before = mx.getThreadAllocatedBytes(me);
            workload(t, p, local, copy, measuredIterations());
            long allocated = mx.getThreadAllocatedBytes(me) - before;
            assertTrue(allocated < 1024, (17L * measuredIterations()) + " accesses allocated " + allocated + " bytes");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAllocateAndFreeOneStruct(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long p = PAIR.allocate(t, 2);
            assertEquals(2, RemotePtr.node(p));
            assertEquals(0, RemotePtr.address(p) & 7);
            PAIR.write(t, p, MemorySegment.ofArray(new byte[SIZE]));
            assertEquals(0, COUNT.fetchAndAdd(t, p, 4));
            assertEquals(4, COUNT.get(t, p));
            PAIR.deallocate(t, p);
            assertThrows(DoubleFreeException.class, () -> PAIR.deallocate(t, p));
            long q = PAIR.allocate(t);
            COUNT.set(t, q, 1);
            assertEquals(1, COUNT.get(t, q));
            PAIR.deallocate(t, q);
        }
    }

    /** Asserts that {@code bad} throws a {@link BadArgumentException} whose message holds {@code naming}, with nothing posted. */
    private static void assertRefused(ComputeThread t, String naming, Executable bad) {
        Counters before = Counters.of(t);
        BadArgumentException e = assertThrows(BadArgumentException.class, bad);
        assertTrue(e.getMessage().contains(naming), e.getMessage());
        assertEquals(before, Counters.of(t), "nothing posted: " + e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadInputBeforeAnyOperation(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long p = scratch(t, 1, 6);
            COUNT.set(t, p, 77);
            long nul = RemotePtr.NULL;
            MemorySegment copy = MemorySegment.ofArray(new byte[SIZE]);
            for (Executable bad : new Executable[] {
                () -> COUNT.get(t, nul), () -> COUNT.set(t, nul, 1), () -> COUNT.compareAndSwap(t, nul, 0, 1),
                () -> COUNT.fetchAndAdd(t, nul, 1), () -> COUNT.getAsync(t, nul, false), () -> COUNT.setAsync(t, nul, 1, false),
                () -> COUNT.compareAndSwapAsync(t, nul, 0, 1, false), () -> COUNT.fetchAndAddAsync(t, nul, 1, false),
                () -> COUNT.at(nul), () -> PAIR.read(t, nul, copy), () -> PAIR.write(t, nul, copy), () -> PAIR.read(t, nul, 0L),
                () -> PAIR.write(t, nul, 0L), () -> PAIR.readAsync(t, nul, 0, false), () -> PAIR.writeAsync(t, nul, 0, false),
                () -> PAIR.deallocate(t, nul)}) {
                assertRefused(t, "null pointer to struct 'pair'", bad);
            }
            long misaligned = RemotePtr.offset(p, 4);
            for (Executable bad : new Executable[] {
                () -> COUNT.get(t, misaligned), () -> NEXT.fetchAndAdd(t, misaligned, 1), () -> PAIR.read(t, misaligned, copy),
                () -> PAIR.write(t, misaligned, 0L), () -> PAIR.deallocate(t, misaligned)}) {
                assertRefused(t, "is not 8-byte aligned", bad);
            }
            MemorySegment small = MemorySegment.ofArray(new byte[SIZE - 8]);
            assertRefused(t, "cannot hold struct 'pair'", () -> PAIR.read(t, p, small));
            assertRefused(t, "cannot hold struct 'pair'", () -> PAIR.write(t, p, small));
            assertRefused(t, "read-only", () -> PAIR.read(t, p, copy.asReadOnly()));
            assertRefused(t, "outside the registered buffer", () -> PAIR.read(t, p, 8192L - 16));
            assertRefused(t, "outside the registered buffer", () -> PAIR.writeAsync(t, p, -8, false));
            long edge = RemotePtr.of(1, RemotePtr.ADDRESS_MASK & ~7L);
            assertRefused(t, "outside the 48-bit address space", () -> NEXT.get(t, edge));

            RemoteStruct big = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_LONG.withName("w"),
                    MemoryLayout.paddingLayout(16 << 10)).withName("big"));
            MemorySegment bigCopy = MemorySegment.ofArray(new byte[8 + (16 << 10)]);
            assertRefused(t, "larger than the thread's buffer", () -> big.read(t, p, bigCopy));
            assertRefused(t, "larger than the thread's buffer", () -> big.write(t, p, bigCopy));

            RemoteStruct line = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_LONG.withName("w"),
                    MemoryLayout.paddingLayout(56)).withByteAlignment(64).withName("line"));
            assertRefused(t, "64-byte alignment", () -> line.allocate(t));
            assertRefused(t, "64-byte alignment", () -> line.allocate(t, 1));
            assertRefused(t, "is not 64-byte aligned", () -> line.field("w").get(t, RemotePtr.offset(p, 8)));

            assertEquals("thread", assertThrows(NullPointerException.class, () -> COUNT.fetchAndAdd(null, p, 1)).getMessage());
            assertEquals("destination", assertThrows(NullPointerException.class,
                    () -> PAIR.read(t, p, (MemorySegment) null)).getMessage());
            assertEquals("source", assertThrows(NullPointerException.class,
                    () -> PAIR.write(t, p, (MemorySegment) null)).getMessage());
            assertEquals(77, COUNT.get(t, p), "no refused call changed the struct");
            assertTrue(Arrays.equals(new byte[SIZE], copy.toArray(ValueLayout.JAVA_BYTE)), "nor the segment");
        }
    }
}
