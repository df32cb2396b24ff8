package io.remus.ds.queue;

import io.remus.check.CheckResult;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.remus.ds.queue.QueueIdentityAssertions.assertClosed;
import static io.remus.ds.queue.QueueIdentityAssertions.assertClosedAndUntouched;
import static io.remus.ds.queue.QueueIdentityAssertions.assertKeptUntilTheLastHandleCloses;
import static io.remus.ds.queue.QueueIdentityAssertions.assertWrong;
import static io.remus.ds.queue.QueueIdentityAssertions.raceDestroys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every MPMC queue of this package promises, run by one subclass per queue ({@link MpmcBoundedQueueTest},
 * {@link MpmcScqQueueTest}, {@link MpmcCrashTolerantQueueTest}): FIFO order across many wraps with exact full and
 * empty, every value out exactly once in each producer's order with three producers and three consumers on three
 * nodes, linearizable histories on segments across a 4 GiB boundary, typed errors for bad input and for calls on
 * closed handles, and the identity of the queue's root: an attach on another queue's root or on a block that is no
 * structure is a {@link WrongStructureException} naming both kinds, of two destroys exactly one frees the queue,
 * and every handle of a destroyed queue is closed, writes nothing and keeps the block until it closes.
 *
 * <p>The queues share no main-code interface: a subclass says how to create, attach and call its queue through the
 * abstract methods here (a queue without deadlines ignores the patience), and keeps the tests of what is its own
 * (costs per call, thresholds, poisoned claims, broken twins).
 *
 * @param <Q> the queue's handle type
 */
abstract class MpmcQueueContractTest<Q> {
    static final int HOME = 0;
    static final Duration PATIENCE = Duration.ofSeconds(20);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Torn 8-byte stores and yields inside transfers and NIC atomics. */
    static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true).withYieldInsideNicAtomics(true);
    }

    /** What a thread's operation counters moved by over one call. */
    record Ops(long roundTrips, long reads, long writes, long compareAndSwaps, long fetchAndAdds) {
        static Ops of(ComputeThread t) {
            return new Ops(t.roundTrips(), t.postedOperations(Opcode.READ), t.postedOperations(Opcode.WRITE),
                    t.postedOperations(Opcode.COMPARE_AND_SWAP), t.postedOperations(Opcode.FETCH_AND_ADD));
        }

        Ops since(ComputeThread t) {
            Ops now = of(t);
            return new Ops(now.roundTrips - roundTrips, now.reads - reads, now.writes - writes,
                    now.compareAndSwaps - compareAndSwaps, now.fetchAndAdds - fetchAndAdds);
        }
    }

    // ------------------------------------------------------------------------------------ how to make and call the queue

    /** The kind the queue's root names. */
    abstract StructureKind kind();

    /** The largest capacity {@link #create} takes. */
    abstract int maxCapacity();

    /**
     * Creates a queue of {@code capacity} values on {@code t}'s node; {@code spareCells} are the cells beyond the
     * capacity of a queue that has spare cells ({@link MpmcCrashTolerantQueue}), ignored by the others.
     */
    abstract Q create(ComputeThread t, int capacity, int spareCells);

    /** @return a handle of {@code t} on the queue at {@code ptr} */
    abstract Q attach(ComputeThread t, long ptr);

    /** The bytes of the root {@link #create} made for these arguments. */
    abstract long bytes(int capacity, int spareCells);

    abstract long ptr(Q q);

    abstract int capacity(Q q);

    /** The queue's offer; a queue without deadlines ignores {@code patience}. */
    abstract boolean offer(Q q, long value, Duration patience);

    /** The queue's poll; a queue without deadlines ignores {@code patience}. */
    abstract OptionalLong poll(Q q, Duration patience);

    abstract void close(Q q);

    abstract void destroy(Q q);

    /** The history of the real queue with seed {@code seed} on the fabric {@code make} makes, checked. */
    abstract CheckResult checkedHistory(Function<SimOptions, Fabric> make, long seed) throws InterruptedException;

    // ------------------------------------------------------------------------------------ what a queue adds to a case

    /** Values each producer offers in the exactly-once run. */
    int valuesPerProducer() {
        return 200;
    }

    /** Checks what the queue adds to the FIFO run, once {@code consumer} drained it. */
    void checkFifoRun(Q producer, Q consumer) {
    }

    /** Refuses the queue's own bad arguments: {@code home} is on the queue's node, {@code remote} a handle on node 1. */
    void refuseOwnBadArguments(ComputeThread home, Q remote) {
    }

    /** Checks the exception an attach on a queue with a zeroed first word threw. */
    void checkCorruption(CorruptedMemoryException e) {
    }

    /** The patience of the offers of the exactly-once run. */
    Duration raceOfferPatience() {
        return PATIENCE;
    }

    /** The patience of the polls of the exactly-once run. */
    Duration racePollPatience() {
        return PATIENCE;
    }

    /** The most rounds of the exactly-once run: rounds run until {@link #raced} says one showed what it should. */
    int raceRounds() {
        return 1;
    }

    /** Counters of one racing handle, summed over the handles of a round ({@link #raced}). */
    long[] raceCounters(Q q) {
        return new long[0];
    }

    /** Checks a round's summed {@link #raceCounters}; answers whether the round showed what the run is after. */
    boolean raced(long[] counters) {
        return true;
    }

    /** What the exactly-once run is after, for the message when no round showed it. */
    String raceGoal() {
        return "";
    }

    /** Checks the drained queue after a round of the exactly-once run, through a fresh handle. */
    void checkDrained(Q q) {
    }

    // ------------------------------------------------------------------------------------ the contract

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepFifoOrderWhenTheQueueWrapsManyTimes(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { });
             ComputeThread home = c.thread(HOME); ComputeThread pt = c.thread(1); ComputeThread ct = c.thread(2)) {
            for (int capacity : new int[] {1, 4}) {
                Q created = create(home, capacity, 1);
                Q producer = attach(pt, ptr(created));
                Q consumer = attach(ct, ptr(created));
                assertEquals(capacity, capacity(consumer));
                assertTrue(poll(consumer, Duration.ZERO).isEmpty(), "a new queue is empty");
                long sent = 0;
                long received = 0;
                while (received < 60) {
                    while (offer(producer, 1000 + sent, Duration.ZERO)) {
                        sent++;
                    }
                    assertEquals(received + capacity, sent, "the queue takes exactly its capacity before it is full");
                    for (long k = 0; k < 1 + received % capacity; k++) {
                        assertEquals(OptionalLong.of(1000 + received), poll(consumer, Duration.ZERO), "value " + received);
                        received++;
                    }
                }
                while (received < sent) {
                    assertEquals(OptionalLong.of(1000 + received), poll(consumer, Duration.ZERO));
                    received++;
                }
                assertTrue(poll(consumer, Duration.ZERO).isEmpty(), "drained");
                assertEquals(OptionalLong.empty(), poll(created, Duration.ZERO), "another handle sees it empty too");
                checkFifoRun(producer, consumer);
                destroy(created);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadInputAndUseAfterCloseWithTypedErrors(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            for (int bad : new int[] {0, -3, maxCapacity() + 1}) {
                BadArgumentException e = assertThrows(BadArgumentException.class, () -> create(home, bad, 0));
                assertTrue(e.getMessage().contains("got " + bad), e.getMessage());
            }
            Q q = create(home, 3, 2);
            Q remote = attach(other, ptr(q));
            refuseOwnBadArguments(home, remote);
            assertTrue(offer(remote, 7, PATIENCE));
            close(remote);
            close(remote);
            assertThrows(ClosedQueueException.class, () -> offer(remote, 8, PATIENCE));
            assertThrows(ClosedQueueException.class, () -> poll(remote, PATIENCE));
            assertThrows(ClosedQueueException.class, () -> destroy(remote));
            assertEquals(OptionalLong.of(7), poll(q, PATIENCE), "closing a handle leaves the queue to the others");
            long notAQueue = c.block(1, 64);
            assertNull(assertThrows(WrongStructureException.class, () -> attach(home, notAQueue)).found());
            Q broken = create(home, 2, 1);
            c.raw(ptr(broken), 8).set(ValueLayout.JAVA_LONG, 0, 0);
            checkCorruption(assertThrows(CorruptedMemoryException.class, () -> attach(other, ptr(broken))));
            destroy(q);
            assertThrows(ClosedQueueException.class, () -> poll(q, PATIENCE), "destroy closes the handle");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHandOutEveryValueExactlyOnceInEachProducersOrderWithThreeProducersAndThreeConsumers(
            Function<SimOptions, Fabric> make) throws InterruptedException {
        // What a round shows (a crossing of calls on one ticket, a claim poisoned in flight) can depend on thread
        // timing: rounds run until one has shown it, each checked in full.
        boolean raced = false;
        for (int round = 0; round < raceRounds() && !raced; round++) {
            raced = raced(raceProducersAgainstConsumers(make));
        }
        assertTrue(raced, raceGoal() + " in " + raceRounds() + " rounds");
    }

    /** One round: 3 producers against 3 consumers on a queue of capacity 4, checked; returns the summed counters. */
    private long[] raceProducersAgainstConsumers(Function<SimOptions, Fabric> make) throws InterruptedException {
        int producers = 3;
        int perProducer = valuesPerProducer();
        long total = (long) producers * perProducer;
        Duration offerPatience = raceOfferPatience();
        Duration pollPatience = racePollPatience();
        try (TestCluster c = new TestCluster(make, hostile(), 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(HOME)) {
                ptr = ptr(create(t, 4, 6));
            }
            AtomicInteger received = new AtomicInteger();
            List<long[]> counters = Collections.synchronizedList(new ArrayList<>());
            List<List<Long>> got = new ArrayList<>();
            for (int i = 0; i < producers; i++) {
                got.add(new ArrayList<>());
            }
            c.runOnThreads(new int[] {0, 1, 2, 1, 2, 0}, (index, t) -> {
                Q q = attach(t, ptr);
                if (index < producers) {
                    for (int i = 0; i < perProducer; i++) {
                        long v = (long) index << 32 | i;
                        while (!offer(q, v, offerPatience)) {
                            Thread.yield();
                        }
                    }
                } else {
                    List<Long> mine = got.get(index - producers);
                    while (received.get() < total) {
                        OptionalLong v = poll(q, pollPatience);
                        if (v.isPresent()) {
                            mine.add(v.getAsLong());
                            received.incrementAndGet();
                        } else {
                            Thread.yield();
                        }
                    }
                }
                counters.add(raceCounters(q));
            });
            boolean[][] seen = new boolean[producers][perProducer];
            for (List<Long> consumer : got) {
                int[] last = new int[producers];
                Arrays.fill(last, -1);
                for (long v : consumer) {
                    int p = (int) (v >>> 32);
                    int i = (int) v;
                    assertFalse(seen[p][i], "value " + p + "/" + i + " taken twice");
                    seen[p][i] = true;
                    assertTrue(i > last[p], "a consumer sees producer " + p + "'s values in the order offered");
                    last[p] = i;
                }
            }
            assertEquals(total, got.stream().mapToLong(List::size).sum(), "every value taken");
            long[] sums = new long[counters.getFirst().length];
            for (long[] handle : counters) {
                for (int i = 0; i < sums.length; i++) {
                    sums[i] += handle[i];
                }
            }
            try (ComputeThread t = c.thread(1)) {
                Q q = attach(t, ptr);
                assertTrue(poll(q, PATIENCE).isEmpty(), "nothing left, nothing duplicated");
                checkDrained(q);
            }
            return sums;
        }
    }

    /**
     * The simulator with segments across a 4 GiB boundary where the seed's history allocates ({@link Straddles}),
     * so that a word READ torn between two pointers points outside every segment (the queue follows no pointer read
     * from shared memory: its histories check as on any placement).
     */
    private static Function<SimOptions, Fabric> straddled(long seed) {
        return options -> new SimFabric(Straddles.across(options, seed, 3));
    }

    @Test
    void shouldCheckAsLinearizableWhenSegmentsCrossA4GiBBoundary() throws InterruptedException {
        for (long seed = 1; seed <= 4; seed++) {
            CheckResult r = checkedHistory(straddled(seed), seed);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), "seed " + seed + ": " + r);
        }
    }

    // ------------------------------------------------------------------------------------ the root's identity

    private static TestCluster identityCluster(Function<SimOptions, Fabric> make) {
        return new TestCluster(make, SimOptions.defaults(), 3, b -> { });
    }

    /**
     * The queues live on node 0; an attach from node 1 on each other queue's root and on a block that is no structure
     * is refused, naming both kinds, and the other queue still works.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAnotherQueuesRootAndABlockThatIsNoStructure(Function<SimOptions, Fabric> make) {
        try (TestCluster c = identityCluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            if (kind() != StructureKind.MPMC_BOUNDED_QUEUE) {
                MpmcBoundedQueue bounded = MpmcBoundedQueue.create(home, 4);
                assertWrong(kind(), StructureKind.MPMC_BOUNDED_QUEUE, () -> attach(other, bounded.ptr()));
                assertTrue(bounded.offer(3, PATIENCE));
                assertEquals(OptionalLong.of(3), MpmcBoundedQueue.attach(other, bounded.ptr()).poll(PATIENCE),
                        "the bounded queue is untouched");
            }
            if (kind() != StructureKind.MPMC_SCQ_QUEUE) {
                MpmcScqQueue scq = MpmcScqQueue.create(home, 4);
                assertWrong(kind(), StructureKind.MPMC_SCQ_QUEUE, () -> attach(other, scq.ptr()));
                assertTrue(scq.offer(3));
                assertEquals(OptionalLong.of(3), MpmcScqQueue.attach(other, scq.ptr()).poll(), "the SCQ is untouched");
            }
            if (kind() != StructureKind.MPMC_CRASH_TOLERANT_QUEUE) {
                MpmcCrashTolerantQueue tolerant = MpmcCrashTolerantQueue.create(home, 4, 2);
                assertWrong(kind(), StructureKind.MPMC_CRASH_TOLERANT_QUEUE, () -> attach(other, tolerant.ptr()));
                assertTrue(tolerant.offer(3, PATIENCE));
                assertEquals(OptionalLong.of(3), MpmcCrashTolerantQueue.attach(other, tolerant.ptr()).poll(PATIENCE),
                        "the crash-tolerant queue is untouched");
            }
            long plain = c.block(HOME, 64);
            assertWrong(kind(), null, () -> attach(other, plain));
        }
    }

    /**
     * Calls after a destroy, on the destroying handle and on handles on nodes 1 and 2 (offers on a full queue, polls
     * on an empty one, and offers and polls on a queue neither empty nor full), and an attach, are
     * {@link ClosedQueueException}.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBeClosedForEveryHandleOnceDestroyed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = identityCluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            Q q = create(home, 1, 0);
            Q empty = create(home, 2, 1);
            assertTrue(offer(q, 41, PATIENCE));
            Q full = attach(one, ptr(q));
            Q drained = attach(two, ptr(empty));
            destroy(q);
            destroy(empty);
            assertClosed(() -> attach(two, ptr(q)), ptr(q));
            assertClosed(() -> offer(full, 42, PATIENCE), ptr(q));
            assertClosed(() -> poll(drained, Duration.ZERO), ptr(empty));
            assertClosed(() -> offer(q, 1, PATIENCE), ptr(q));
            assertClosed(() -> poll(q, PATIENCE), ptr(q));
            assertClosed(() -> destroy(q), ptr(q));

            Q some = create(home, 2, 1);
            assertTrue(offer(some, 41, PATIENCE));
            Q consumer = attach(one, ptr(some));
            Q producer = attach(two, ptr(some));
            destroy(some);
            assertClosed(() -> attach(two, ptr(some)), ptr(some));
            assertClosed(() -> poll(consumer, PATIENCE), ptr(some));
            assertClosed(() -> offer(producer, 42, PATIENCE), ptr(some));
            assertClosed(() -> offer(some, 1, PATIENCE), ptr(some));
            assertClosed(() -> poll(some, PATIENCE), ptr(some));
            assertClosed(() -> destroy(some), ptr(some));
        }
    }

    /** Of two destroys, exactly one frees the queue, also when they race on nodes 1 and 2, and the allocator stays sound. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBeFreedByOneOfTwoDestroys(Function<SimOptions, Fabric> make) throws InterruptedException {
        try (TestCluster c = identityCluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            Q q = create(home, 4, 1);
            Q second = attach(other, ptr(q));
            destroy(q);
            assertClosed(() -> destroy(second), ptr(q));
            assertClosed(() -> poll(second, Duration.ZERO), ptr(q));
            Q next = create(home, 4, 1);
            assertTrue(offer(attach(other, ptr(next)), 9, PATIENCE));
            assertEquals(OptionalLong.of(9), poll(next, PATIENCE));
            assertFalse(poll(next, Duration.ZERO).isPresent());
            destroy(next);

            Q raced = create(home, 4, 1);
            raceDestroys(c, ptr(raced), t -> {
                Q h = attach(t, ptr(raced));
                return () -> destroy(h);
            });
            Q after = create(home, 4, 1);
            assertTrue(offer(after, 5, PATIENCE));
            assertEquals(OptionalLong.of(5), poll(attach(other, ptr(after)), PATIENCE));
        }
    }

    /**
     * A handle whose tickets are current, on a queue neither empty nor full, may read only slots, entries and cells in
     * its offer and poll: once another handle destroyed the queue, both are closed and write nothing, on node 1 and on
     * the queue's own node; the queue's block stays allocated until that handle closes, which frees it.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBeClosedForAHandleWithCurrentTicketsAndKeptUntilItCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = identityCluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread near = c.thread(HOME)) {
            for (ComputeThread t : new ComputeThread[] {one, near}) {
                Q q = create(home, 4, 0);
                long bytes = bytes(4, 0);
                Q h = attach(t, ptr(q));
                assertTrue(offer(h, 1, PATIENCE));
                assertTrue(offer(h, 2, PATIENCE));
                assertEquals(OptionalLong.of(1), poll(h, PATIENCE), "the handle's tickets are current");
                destroy(q);
                assertClosedAndUntouched(c, ptr(q), bytes, () -> offer(h, 3, PATIENCE), () -> poll(h, Duration.ZERO));

                assertKeptUntilTheLastHandleCloses(home, ptr(q), () -> close(h));
                assertClosedAndUntouched(c, ptr(q), bytes, () -> poll(h, Duration.ZERO), () -> offer(h, 3, PATIENCE));
            }
        }
    }
}
