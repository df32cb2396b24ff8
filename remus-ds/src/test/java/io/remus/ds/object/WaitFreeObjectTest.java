package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WaitFreeObject} with a sequential object of its own (a fetch-and-add counter whose every
 * response is the value before the add): every ticket handed out exactly once under contention on
 * several nodes, each call within its bound, the state read without change, replaced states reclaimed,
 * and bad arguments refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitFreeObjectTest extends ObjectContractTest<WaitFreeObject<Long>> {
    private static final long ADD = 1;

    @Override
    StructureKind structureKind() {
        return StructureKind.WAIT_FREE_OBJECT;
    }

    @Override
    WaitFreeObject<Long> create(ComputeThread t, int node) {
        return WaitFreeObject.create(t, new NeverReclaimer(t), node, 4, new Counter());
    }

    @Override
    WaitFreeObject<Long> attach(ComputeThread t, long ptr) {
        return WaitFreeObject.attach(t, new NeverReclaimer(t), ptr, new Counter());
    }

    @Override
    long ptr(WaitFreeObject<Long> handle) {
        return handle.ptr();
    }

    @Override
    void destroy(WaitFreeObject<Long> handle) {
        handle.destroy();
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.WAIT_FREE_QUEUE;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 1).ptr();
    }

    @Override
    List<Call<WaitFreeObject<Long>>> rootReads() {
        return List.of(new Call<>("apply", h -> h.apply(ADD, 1)), new Call<>("read", WaitFreeObject::read),
                new Call<>("applied", h -> h.applied(0)));
    }

    @Override
    void use(WaitFreeObject<Long> handle) {
        assertEquals(0, handle.apply(ADD, 5));
        assertEquals(5L, handle.read());
    }

    int operationsPerThread() {
        return 200;
    }

    /**
     * A sequential fetch-and-add counter: the state is the count (in the first 8 of {@code bytes} bytes),
     * {@code ADD d} returns the count before.
     */
    record Counter(int bytes) implements SequentialObject<Long> {
        Counter() {
            this(8);
        }

        @Override
        public int stateBytes() {
            return bytes;
        }

        @Override
        public Long initialState() {
            return 0L;
        }

        @Override
        public void store(Long state, MemorySegment to) {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, state);
        }

        @Override
        public Long load(MemorySegment from) {
            return from.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        }

        @Override
        public Step<Long> apply(Long state, long operation, long argument) {
            return operation == ADD ? new Step<>(state + argument, 0, state) : new Step<>(state, 1, 0);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHandOutEveryTicketOnceWithinTheBoundWhenThreadsOnSeveralNodesAdd(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int threads = 6;
        int ops = operationsPerThread();
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3,
                b -> b.segmentSize(16 << 20))) {
            ComputeThread main = c.thread(2);
            NeverReclaimer mainReclaimer = new NeverReclaimer(main);
            WaitFreeObject<Long> creator = WaitFreeObject.create(main, mainReclaimer, HOME, threads + 1, new Counter());
            long[][] got = new long[threads][ops];
            long[] announcedBySlot = new long[threads + 1];
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    WaitFreeObject<Long> counter = WaitFreeObject.attach(t, reclaimer, creator.ptr(), new Counter());
                    for (int i = 0; i < ops; i++) {
                        Contention.maybeYield();
                        long allocRt = counter.allocatorRoundTrips();
                        long allocCas = counter.allocatorCompareAndSwaps();
                        Counts before = Counts.of(t);
                        got[index][i] = counter.apply(ADD, 1);
                        Counts w = before.since(t);
                        assertEquals(0, counter.status());
                        long ownRt = w.roundTrips() - (counter.allocatorRoundTrips() - allocRt);
                        long ownCas = w.compareAndSwaps() - (counter.allocatorCompareAndSwaps() - allocCas);
                        assertTrue(ownRt >= 2 && ownRt <= 6 && ownCas >= 1 && ownCas <= 3,
                                "at most 6 round trips and 3 compare-and-swaps besides the allocator " + w);
                        assertTrue(i == 0 || got[index][i] > got[index][i - 1], "a thread's own adds are ordered");
                    }
                    synchronized (announcedBySlot) {
                        announcedBySlot[counter.slot()] = counter.announced();
                    }
                }
            });
            long[] all = Arrays.stream(got).flatMapToLong(Arrays::stream).sorted().toArray();
            for (int i = 0; i < all.length; i++) {
                assertEquals(i, all[i], "every ticket handed out exactly once");
            }
            assertEquals((long) threads * ops, creator.read(), "the count is the number of adds");
            for (int s = 0; s <= threads; s++) {
                assertEquals(announcedBySlot[s], creator.applied(s), "slot " + s + ": every announced add applied once");
            }
            Counts before = Counts.of(main);
            creator.read();
            assertEquals(new Counts(2, 2, 0, 0, 0, StructureIdentity.PREFIX_BYTES + 8 + creator.blockBytes(), 0), before.since(main),
                    "read: two READs");
            main.close();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRetireReplacedStatesAndFreeThemThroughTheEpochReclaimer(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); EpochReclaimer r = new EpochReclaimer(a, a.allocator())) {
            WaitFreeObject<Long> counter = WaitFreeObject.create(a, r, HOME, 1, new Counter());
            for (int i = 0; i < 50; i++) {
                assertEquals(i, counter.apply(ADD, 1));
            }
            assertEquals(0, counter.apply(2, 9), "an unknown operation gets its status and changes nothing");
            assertEquals(1, counter.status());
            assertEquals(50L, counter.read());
            for (int pass = 0; pass < 3; pass++) {
                r.reclaim();
            }
            assertEquals(51L * counter.blockBytes(), r.retiredBytes(), "every replaced state retired once");
            assertTrue(r.unreclaimedBytes() < r.retiredBytes(), "replaced states were freed");
            counter.destroy();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStartOverInAFreshGuardWhenTheLeaseRanOutAndCompleteAnOperationLeftByAThrowingCall(
            Function<SimOptions, Fabric> make) {
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
            WaitFreeObject<Long> counter = WaitFreeObject.create(t, r, HOME, 1, new Counter());
            assertEquals(0, counter.apply(ADD, 1));
            Counts before = Counts.of(t);
            jump.set(true);
            assertEquals(1, counter.apply(ADD, 1), "the add completes once, in a fresh guard");
            jump.set(false);
            assertTrue(calls.get() >= 3, "the guard was found invalid and entered again");
            assertTrue(before.since(t).reads() > 4, "what the first guard read was not trusted: read again " + before.since(t));
            assertEquals(2L, counter.read());
            assertEquals(2, counter.applied(0));

            Guard outer = r.enter();
            clock.addAndGet(1_000);
            assertThrows(LeaseExpiredException.class, () -> counter.apply(ADD, 10),
                    "an outer guard whose lease ran out cannot be renewed inside");
            outer.close();
            assertEquals(3, counter.announced(), "the add that threw stays announced");
            assertEquals(12, counter.apply(ADD, 100), "the next call completes the announced add first, then its own");
            assertEquals(112L, counter.read());
            assertEquals(4, counter.applied(0), "each add applied exactly once");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldTellACorruptedStatePointerFromATornOne(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); NeverReclaimer r = new NeverReclaimer(a)) {
            WaitFreeObject<Long> counter = WaitFreeObject.create(a, r, HOME, 2, new Counter());
            assertEquals(0, counter.apply(ADD, 5));
            long stateWord = RemotePtr.offset(counter.ptr(), 0);
            long block = c.raw(stateWord, 8).get(ValueLayout.JAVA_LONG, 0);
            MemorySegment self = c.raw(block, 8);
            self.set(ValueLayout.JAVA_LONG, 0, block + 64);
            assertThrows(CorruptedMemoryException.class, counter::read, "a block that is no state block published there");
            assertThrows(CorruptedMemoryException.class, () -> counter.apply(ADD, 1));
            self.set(ValueLayout.JAVA_LONG, 0, block);
            assertEquals(6, counter.apply(ADD, 1), "repaired, the add left announced by the throwing call completes first");
            assertEquals(7L, counter.read());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadArguments(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); NeverReclaimer r = new NeverReclaimer(a)) {
            assertThrows(BadArgumentException.class, () -> WaitFreeObject.create(a, r, HOME, 0, new Counter()));
            assertThrows(BadArgumentException.class, () -> WaitFreeObject.create(a, r, HOME, 100_000, new Counter()));
            assertThrows(BadArgumentException.class, () -> WaitFreeObject.create(a, r, HOME, 2, new Counter(0)));
            WaitFreeObject<Long> counter = WaitFreeObject.create(a, r, HOME, 3, new Counter());
            assertEquals(8, WaitFreeObject.stateBytes(a, counter.ptr()));
            assertThrows(BadArgumentException.class, () -> WaitFreeObject.attach(a, r, counter.ptr(), new Counter(16)),
                    "a sequential object of another state size");
            assertThrows(BadArgumentException.class, () -> WaitFreeObject.attach(a, r, 0, new Counter()));
            assertThrows(BadArgumentException.class, () -> counter.applied(3));
        }
    }
}
