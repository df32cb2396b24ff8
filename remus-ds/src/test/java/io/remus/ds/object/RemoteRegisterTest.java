package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RemoteRegister}: never torn under racing writers, reclaimed, and its per-call cost. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteRegisterTest extends ObjectContractTest<RemoteRegister> {
    private static final int SIZE = 64;
    private static final int THREADS = 6;

    @Override
    StructureKind structureKind() {
        return StructureKind.REMOTE_REGISTER;
    }

    @Override
    RemoteRegister create(ComputeThread t, int node) {
        return RemoteRegister.create(t, new NeverReclaimer(t), node, new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9});
    }

    @Override
    RemoteRegister attach(ComputeThread t, long ptr) {
        return RemoteRegister.attach(t, new NeverReclaimer(t), ptr);
    }

    @Override
    long ptr(RemoteRegister handle) {
        return handle.ptr();
    }

    @Override
    void destroy(RemoteRegister handle) {
        handle.destroy();
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.REMOTE_COUNTER;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return RemoteCounter.create(t, node, 16).ptr();
    }

    @Override
    List<Call<RemoteRegister>> rootReads() {
        return List.of(new Call<>("read", RemoteRegister::read));
    }

    @Override
    List<Call<RemoteRegister>> otherCalls() {
        return List.of(new Call<>("write", h -> h.write(new byte[9])));
    }

    @Override
    void use(RemoteRegister handle) {
        assertEquals(9, handle.read().length);
        handle.write(new byte[]{9, 8, 7, 6, 5, 4, 3, 2, 1});
        assertEquals(9, handle.read()[0]);
    }

    int operationsPerThread() {
        return 300;
    }

    /** Whether racing writers overlap for sure in a run (the simulator's injected latency makes them). */
    boolean racesForSure() {
        return true;
    }

    /** Torn 8-byte stores, yields inside transfers, and poison in freed blocks: whatever a torn or stale read could show. */
    private static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true).withPoisonFreedBlocks(true);
    }

    private static void fill(MemorySegment value, long word) {
        for (int i = 0; i < SIZE; i += 8) {
            value.set(ValueLayout.JAVA_LONG_UNALIGNED, i, word);
        }
    }

    /** @return the word every 8 bytes of the value hold, after asserting that they all hold it */
    private static long wordOf(MemorySegment value) {
        long w = value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        for (int i = 8; i < SIZE; i += 8) {
            assertEquals(w, value.get(ValueLayout.JAVA_LONG_UNALIGNED, i), "torn value: word 0 is 0x" + Long.toHexString(w) + ", word " + i / 8
                    + " 0x" + Long.toHexString(value.get(ValueLayout.JAVA_LONG_UNALIGNED, i)));
        }
        return w;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnOnlyWholeWrittenValuesWhenWritersRaceReadersOnSeveralNodes(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int ops = operationsPerThread();
        AtomicLongArray started = new AtomicLongArray(THREADS + 1);
        try (TestCluster c = new TestCluster(make, hostile(), 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                MemorySegment initial = MemorySegment.ofArray(new byte[SIZE]);
                fill(initial, 0);
                ptr = RemoteRegister.create(t, r, 1, initial).ptr();
            }
            EpochOptions options = EpochOptions.defaults().withBytes(4 * SIZE, 64 * SIZE);
            AtomicLong reclaimed = new AtomicLong();
            c.runOnThreads(Contention.spread(THREADS, 3), (index, t) -> {
                try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), options)) {
                    RemoteRegister reg = RemoteRegister.attach(t, reclaimer, ptr);
                    MemorySegment value = MemorySegment.ofArray(new byte[SIZE]);
                    long[] lastSeen = new long[THREADS + 1];
                    for (int i = 1; i <= ops; i++) {
                        Contention.maybeYield();
                        if (index % 2 == 0) {
                            started.set(index + 1, i);
                            fill(value, ((long) (index + 1) << 32) | i);
                            reg.write(value);
                        }
                        reg.read(value);
                        long w = wordOf(value);
                        int writer = (int) (w >>> 32);
                        long seq = w & 0xFFFF_FFFFL;
                        assertTrue(writer >= 0 && writer <= THREADS && (writer == 0 ? seq == 0 : seq >= 1),
                                "a value nobody wrote: 0x" + Long.toHexString(w));
                        assertTrue(writer == 0 || seq <= started.get(writer), "a value not written yet: 0x" + Long.toHexString(w));
                        assertTrue(seq >= lastSeen[writer], "a reader went back to an older write of thread " + writer);
                        lastSeen[writer] = seq;
                    }
                    reclaimer.reclaim();
                    reclaimed.addAndGet(reclaimer.retiredBytes() - reclaimer.unreclaimedBytes());
                }
            });
            assertTrue(reclaimed.get() > 0, "replaced values were freed while readers ran");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStayWithinItsPerCallBoundWhenWritersRace(Function<SimOptions, Fabric> make) throws InterruptedException {
        int ops = operationsPerThread();
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withExecutionLatencyNanos(10_000), 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = RemoteRegister.create(t, r, 1, new byte[SIZE]).ptr();
            }
            AtomicInteger overwritten = new AtomicInteger();
            c.runOnThreads(Contention.spread(THREADS, 3), (index, t) -> {
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    RemoteRegister reg = RemoteRegister.attach(t, reclaimer, ptr);
                    MemorySegment value = MemorySegment.ofArray(new byte[SIZE]);
                    for (int i = 0; i < ops; i++) {
                        Contention.maybeYield();
                        fill(value, i);
                        long allocRt = reg.allocatorRoundTrips();
                        long allocCas = reg.allocatorCompareAndSwaps();
                        Counts before = Counts.of(t);
                        reg.write(value);
                        Counts w = before.since(t);
                        long ownRt = w.roundTrips() - (reg.allocatorRoundTrips() - allocRt);
                        long ownCas = w.compareAndSwaps() - (reg.allocatorCompareAndSwaps() - allocCas);
                        assertTrue(ownRt >= 1 && ownRt <= 2, "write: 1 or 2 round trips besides the allocator, got " + ownRt + " in " + w);
                        assertTrue(ownCas >= 1 && ownCas <= 2, "write: 1 or 2 compare-and-swaps besides the allocator, got " + ownCas);
                        assertTrue(w.writes() >= 1 && w.bytesWritten() >= SIZE, "write: the value in one WRITE " + w);
                        if (ownCas == 2) {
                            overwritten.incrementAndGet();
                        }
                        before = Counts.of(t);
                        reg.read(value);
                        Counts r = before.since(t);
                        long remote = t.nodeId() == 1 ? 0 : 1;
                        assertEquals(new Counts(2 * remote, 2 * remote, 0, 0, 0, (StructureIdentity.PREFIX_BYTES + 8 + SIZE) * remote, 0), r,
                                "read: two READs (the header and identity word in front of the pointer)");
                    }
                }
            });
            if (racesForSure()) {
                assertTrue(overwritten.get() > 0, "some writes raced (the second compare-and-swap was taken)");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReadWhatWasWrittenAndRefuseOtherSizes(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            byte[] first = new byte[100];
            first[99] = 7;
            RemoteRegister ha = RemoteRegister.create(a, ra, 1, first);
            RemoteRegister hb = RemoteRegister.attach(b, rb, ha.ptr());
            assertEquals(100, hb.size());
            assertArrayEquals(first, hb.read());
            byte[] second = new byte[100];
            second[0] = 9;
            hb.write(second);
            assertArrayEquals(second, ha.read());
            ha.write(first);
            assertArrayEquals(first, hb.read());
            assertEquals(2, ra.retiredBytes() / 100 + rb.retiredBytes() / 100, "each replaced value retired once");
            assertThrows(BadArgumentException.class, () -> ha.write(new byte[99]));
            assertThrows(BadArgumentException.class, () -> ha.read(MemorySegment.ofArray(new byte[101])));
            assertThrows(BadArgumentException.class, () -> RemoteRegister.create(a, ra, 1, new byte[0]));
            assertThrows(BadArgumentException.class, () -> RemoteRegister.create(a, ra, 1, new byte[1 << 16]));
            ha.destroy();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReadAgainInAFreshGuardWhenTheLeaseRanOutDuringARead(Function<SimOptions, Fabric> make) {
        AtomicLong clock = new AtomicLong(1_000_000);
        AtomicBoolean jump = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofMillis(100)).withClock(() -> {
            if (jump.get() && calls.incrementAndGet() == 2) {
                return clock.addAndGet(1_000);
            }
            return clock.get();
        });
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0);
             EpochReclaimer r = new EpochReclaimer(t, t.allocator(), options)) {
            byte[] value = new byte[24];
            value[5] = 5;
            RemoteRegister reg = RemoteRegister.create(t, r, 2, value);
            Counts before = Counts.of(t);
            jump.set(true);
            assertArrayEquals(value, reg.read());
            jump.set(false);
            assertEquals(4, before.since(t).reads(), "the first attempt's two READs were not trusted: two more in a fresh guard");
            assertTrue(calls.get() >= 3);

            Guard outer = r.enter();
            clock.addAndGet(1_000);
            assertThrows(LeaseExpiredException.class, reg::read, "an outer guard whose lease ran out cannot be renewed inside");
            outer.close();
            assertArrayEquals(value, reg.read());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFreeTheBlockOfAnOverwrittenWriteAndRetireEveryReplacedOne(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(1);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            RemoteRegister ha = RemoteRegister.create(a, ra, 2, new byte[16]);
            RemoteRegister hb = RemoteRegister.attach(b, rb, ha.ptr());
            for (int i = 0; i < 10; i++) {
                byte[] v = new byte[16];
                v[0] = (byte) i;
                (i % 2 == 0 ? ha : hb).write(v);
            }
            assertEquals(10, ra.unreclaimedBlocks() + rb.unreclaimedBlocks(), "every write replaced one value, retired by its writer");
            assertEquals(9, ha.read()[0]);
        }
    }
}
