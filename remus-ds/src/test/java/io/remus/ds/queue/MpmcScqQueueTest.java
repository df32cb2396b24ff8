package io.remus.ds.queue;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.object.BoundedContainerSpec;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MpmcScqQueue}: the MPMC queue contract ({@link MpmcQueueContractTest}) with rounds of its exactly-once
 * run until puts and takes of one ticket cross and no cell lost after each, the per-call RDMA operations
 * (fetch-and-add tickets; the threshold that makes empty and full cost one READ), and linearizable histories of two
 * producers and two consumers on three nodes on a hostile simulator, with a broken twin (takes that do not mark
 * the tickets they pass) the same check catches.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MpmcScqQueueTest extends MpmcQueueContractTest<MpmcScqQueue> {
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    /** Seeds of the history check. */
    int historySeeds() {
        return 25;
    }

    /** The most seeds the broken twin is raced over before the test gives up on catching it. */
    int twinSeeds() {
        return 160;
    }

    @Override
    StructureKind kind() {
        return StructureKind.MPMC_SCQ_QUEUE;
    }

    @Override
    int maxCapacity() {
        return MpmcScqQueue.MAX_CAPACITY;
    }

    @Override
    MpmcScqQueue create(ComputeThread t, int capacity, int spareCells) {
        return MpmcScqQueue.create(t, capacity);
    }

    @Override
    MpmcScqQueue attach(ComputeThread t, long ptr) {
        return MpmcScqQueue.attach(t, ptr);
    }

    @Override
    long bytes(int capacity, int spareCells) {
        return MpmcScqQueue.bytes(capacity);
    }

    @Override
    long ptr(MpmcScqQueue q) {
        return q.ptr();
    }

    @Override
    int capacity(MpmcScqQueue q) {
        return q.capacity();
    }

    @Override
    boolean offer(MpmcScqQueue q, long value, Duration patience) {
        return q.offer(value);
    }

    @Override
    OptionalLong poll(MpmcScqQueue q, Duration patience) {
        return q.poll();
    }

    @Override
    void close(MpmcScqQueue q) {
        q.close();
    }

    @Override
    void destroy(MpmcScqQueue q) {
        q.destroy();
    }

    @Override
    CheckResult checkedHistory(Function<SimOptions, Fabric> make, long seed) throws InterruptedException {
        return raceAndCheck(make, seed, false);
    }

    @Override
    void refuseOwnBadArguments(ComputeThread home, MpmcScqQueue remote) {
        assertThrows(NullPointerException.class, () -> MpmcScqQueue.create(null, 2));
    }

    @Override
    void checkCorruption(CorruptedMemoryException e) {
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
    }

    @Override
    int raceRounds() {
        return 8;
    }

    @Override
    long[] raceCounters(MpmcScqQueue q) {
        return new long[] {q.retakes()};
    }

    @Override
    boolean raced(long[] counters) {
        return counters[0] > 0;
    }

    @Override
    String raceGoal() {
        return "puts and takes of one ticket crossed, and the loser took another,";
    }

    @Override
    void checkDrained(MpmcScqQueue q) {
        int fit = 0;
        while (q.offer(fit)) {
            fit++;
        }
        assertEquals(4, fit, "no cell was lost");
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostEightRoundTripsPerOfferAndPollAndOneWhenEmptyOrFullOnceTheThresholdRanOut(
            Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { });
             ComputeThread home = c.thread(HOME); ComputeThread pt = c.thread(1); ComputeThread ct = c.thread(2)) {
            int capacity = 2;
            MpmcScqQueue created = MpmcScqQueue.create(home, capacity);
            Ops before = Ops.of(pt);
            MpmcScqQueue producer = MpmcScqQueue.attach(pt, created.ptr());
            assertEquals(new Ops(2, 1, 0, 1, 0), before.since(pt), "attach: one READ of the capacity, the handles word's compare-and-swap");
            MpmcScqQueue consumer = MpmcScqQueue.attach(ct, created.ptr());

            before = Ops.of(ct);
            assertTrue(consumer.poll().isEmpty());
            assertEquals(new Ops(1, 1, 0, 0, 0), before.since(ct), "a new queue's threshold is negative: one READ");
            before = Ops.of(pt);
            assertTrue(producer.offer(0));
            assertEquals(new Ops(9, 3, 1, 3, 3), before.since(pt), "first offer: free ring READ threshold, FAA head, READ"
                    + " entry, FAA entry with WRITE cell; allocated ring FAA tail, READ entry, CAS entry, and two CASes that"
                    + " set its threshold (-1) back to the top");
            before = Ops.of(pt);
            assertTrue(producer.offer(1));
            assertEquals(new Ops(8, 3, 1, 2, 3), before.since(pt), "offer: one CAS finds the threshold at the top");
            before = Ops.of(pt);
            assertFalse(producer.offer(9));
            assertEquals(new Ops(7, 3, 0, 2, 2), before.since(pt), "full with threshold left: READ threshold, FAA head,"
                    + " READ entry, CAS mark, READ tail, CAS tail up to the head, FAA threshold");
            before = Ops.of(ct);
            assertEquals(OptionalLong.of(0), consumer.poll());
            assertEquals(new Ops(9, 4, 0, 3, 3), before.since(ct), "poll after the full offer lowered the free ring's"
                    + " threshold: allocated ring READ threshold, FAA head, READ entry, FAA entry with READ cell; free ring FAA"
                    + " tail, READ entry, CAS entry, two CASes of the threshold");
            before = Ops.of(ct);
            assertEquals(OptionalLong.of(1), consumer.poll());
            assertEquals(new Ops(8, 4, 0, 2, 3), before.since(ct), "poll");
            int polls = 0;
            while (true) {
                before = Ops.of(ct);
                assertTrue(consumer.poll().isEmpty());
                polls++;
                Ops cost = before.since(ct);
                if (cost.roundTrips() == 1) {
                    assertEquals(new Ops(1, 1, 0, 0, 0), cost, "empty once the threshold ran out: one READ");
                    break;
                }
                assertEquals(new Ops(7, 3, 0, 2, 2), cost, "empty with threshold left");
                assertTrue(polls <= MpmcScqQueue.threshold(capacity) + 1, "the threshold runs out: " + polls + " polls");
            }
            assertEquals(MpmcScqQueue.threshold(capacity) + 2, polls, "polls until the threshold ran out, and one after");
            before = Ops.of(pt);
            assertTrue(producer.offer(7));
            assertEquals(new Ops(9, 3, 1, 3, 3), before.since(pt), "an offer sets the threshold back to the top");
            assertEquals(OptionalLong.of(7), consumer.poll(), "and its value is found");
            created.destroy();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCheckAsLinearizable(Function<SimOptions, Fabric> make) throws InterruptedException {
        for (long seed = 1; seed <= historySeeds(); seed++) {
            CheckResult r = raceAndCheck(make, seed, false);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), "seed " + seed + ": " + r);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchTheBrokenTwinWhoseTakesDoNotMarkTheTicketsTheyPass(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        boolean caught = false;
        for (long seed = 1; seed <= twinSeeds() && !caught; seed++) {
            CheckResult r = raceAndCheck(make, seed, true);
            assertTrue(r.verdict() != Verdict.UNKNOWN, "seed " + seed + ": the checker ran out of budget");
            caught = r.verdict() == Verdict.NOT_LINEARIZABLE;
        }
        assertTrue(caught, "the checker never caught the twin");
    }

    /**
     * Two producers (nodes 1 and 2) each offer 30 distinct words (once each, full or not), and two consumers (nodes
     * 0 and 1) poll 40 times each, all recording and yielding at random, on a queue of capacity 2 on node 0; then
     * one more caller polls until the queue answers empty. The history is checked as a FIFO of 2 words whose full
     * offers and empty polls are operations too; full may come early (a cell held by a call in flight).
     */
    private CheckResult raceAndCheck(Function<SimOptions, Fabric> make, long seed, boolean twin)
            throws InterruptedException {
        int capacity = 2;
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[5];
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = history.recorder(i);
        }
        SimOptions options = twin ? hostile().withTearReads(false) : hostile();
        try (TestCluster c = new TestCluster(make, options, 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(HOME)) {
                ptr = MpmcScqQueue.create(t, capacity).ptr();
            }
            CyclicBarrier start = new CyclicBarrier(4);
            c.runOnThreads(new int[] {1, 2, 0, 1}, (index, t) -> {
                SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + index);
                History.Recorder r = recorders[index];
                MpmcScqQueue q = MpmcScqQueue.attach(t, ptr);
                UnmarkingTwin broken = twin ? new UnmarkingTwin(t, ptr) : null;
                start.await(30, TimeUnit.SECONDS);
                if (index < 2) {
                    for (int i = 0; i < 30; i++) {
                        long v = seed * 1_000_000 + index * 1000L + i + 1;
                        maybeYield(rnd);
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        boolean ok;
                        try {
                            ok = broken == null ? q.offer(v) : broken.offer(v);
                        } catch (TwinStuckException e) {
                            return;
                        }
                        r.respond(op, ok ? 1 : 0);
                        if (!ok) {
                            Thread.yield();
                        }
                    }
                } else {
                    for (int i = 0; i < 40; i++) {
                        maybeYield(rnd);
                        int op = r.invoke(BoundedContainerSpec.TAKE);
                        OptionalLong v;
                        try {
                            v = broken == null ? q.poll() : broken.poll();
                        } catch (TwinStuckException e) {
                            return;
                        }
                        if (v.isPresent()) {
                            r.respond(op, v.getAsLong());
                        } else {
                            r.respond(op);
                            Thread.yield();
                        }
                    }
                }
            });
            try (ComputeThread t = c.thread(2)) {
                MpmcScqQueue q = MpmcScqQueue.attach(t, ptr);
                UnmarkingTwin broken = twin ? new UnmarkingTwin(t, ptr) : null;
                for (int i = 0; i < 2 * capacity + 4; i++) {
                    int op = recorders[4].invoke(BoundedContainerSpec.TAKE);
                    OptionalLong v;
                    try {
                        v = broken == null ? q.poll() : broken.poll();
                    } catch (TwinStuckException e) {
                        break;
                    }
                    if (v.isEmpty()) {
                        recorders[4].respond(op);
                        break;
                    }
                    recorders[4].respond(op, v.getAsLong());
                }
            }
        }
        return CHECKER.check(history.operations(), new BoundedContainerSpec(true, capacity, true));
    }

    private static void maybeYield(SplittableRandom rnd) {
        if (rnd.nextInt(3) == 0) {
            Thread.yield();
        }
    }

    /**
     * The broken twin: the queue's layout and protocol, except that a take passing a ticket whose put has not
     * happened leaves the entry as it is, so a put that comes later publishes its cell on a ticket no take will
     * visit again. Its puts pause between the ticket and the publication, as a descheduled producer does. A call that
     * loops longer than {@link TwinStuckException#BOUND} throws {@link TwinStuckException}.
     */
    private static final class UnmarkingTwin {
        private final ComputeThread t;
        private final long ptr;
        private final int capacity;
        private final long size;
        private long stuckAt;

        UnmarkingTwin(ComputeThread t, long ptr) {
            this.t = t;
            this.ptr = ptr;
            this.capacity = (int) t.read(ptr + MpmcScqQueue.CAPACITY);
            this.size = 2L * capacity;
        }

        boolean offer(long value) {
            stuckAt = TwinStuckException.deadline();
            long[] at = new long[1];
            int index = take(MpmcScqQueue.FREE_RING, at);
            if (index < 0) {
                return false;
            }
            t.fetchAndAdd(at[0], MpmcScqQueue.NONE - index);
            t.write(cell(index), value);
            put(MpmcScqQueue.ALLOC_RING, index, true);
            return true;
        }

        OptionalLong poll() {
            stuckAt = TwinStuckException.deadline();
            long[] at = new long[1];
            int index = take(MpmcScqQueue.ALLOC_RING, at);
            if (index < 0) {
                return OptionalLong.empty();
            }
            t.fetchAndAdd(at[0], MpmcScqQueue.NONE - index);
            long value = t.read(cell(index));
            put(MpmcScqQueue.FREE_RING, index, false);
            return OptionalLong.of(value);
        }

        private long cell(int index) {
            return ptr + MpmcScqQueue.HEADER_BYTES + 32L * capacity + 8L * index;
        }

        private long entry(long ring, long ticket) {
            long entries = ptr + MpmcScqQueue.HEADER_BYTES + (ring == MpmcScqQueue.ALLOC_RING ? 0 : 16L * capacity);
            return entries + 8L * Math.floorMod(ticket, size);
        }

        private void put(long ring, int index, boolean pause) {
            long words = ptr + ring;
            while (true) {
                TwinStuckException.check(stuckAt);
                long ticket = t.fetchAndAdd(words + MpmcScqQueue.TAIL, 1);
                if (pause) {
                    LockSupport.parkNanos(200_000);
                }
                long cycle = (ticket / size) & MpmcScqQueue.CYCLE_MASK;
                long at = entry(ring, ticket);
                long e = t.read(at);
                while (MpmcScqQueue.after(MpmcScqQueue.cycle(e), cycle) < 0 && MpmcScqQueue.index(e) == MpmcScqQueue.NONE
                        && (MpmcScqQueue.safe(e) || t.read(words + MpmcScqQueue.HEAD) <= ticket)) {
                    long seen = t.compareAndSwap(at, e, MpmcScqQueue.entry(cycle, true, index));
                    if (seen == e) {
                        long top = MpmcScqQueue.threshold(capacity);
                        long expected = top;
                        long was;
                        while ((was = t.compareAndSwap(words + MpmcScqQueue.THRESHOLD, expected, top)) != expected && was != top) {
                            expected = was;
                        }
                        return;
                    }
                    e = seen;
                }
            }
        }

        private int take(long ring, long[] taken) {
            long words = ptr + ring;
            if (t.read(words + MpmcScqQueue.THRESHOLD) < 0) {
                return -1;
            }
            while (true) {
                TwinStuckException.check(stuckAt);
                long ticket = t.fetchAndAdd(words + MpmcScqQueue.HEAD, 1);
                long cycle = (ticket / size) & MpmcScqQueue.CYCLE_MASK;
                long at = entry(ring, ticket);
                long e = t.read(at);
                if (MpmcScqQueue.cycle(e) == cycle) {
                    taken[0] = at;
                    return MpmcScqQueue.index(e);
                }
                long tail = t.read(words + MpmcScqQueue.TAIL);
                if (tail <= ticket + 1) {
                    t.compareAndSwap(words + MpmcScqQueue.TAIL, tail, ticket + 1);
                    t.fetchAndAdd(words + MpmcScqQueue.THRESHOLD, -1);
                    return -1;
                }
                if (t.fetchAndAdd(words + MpmcScqQueue.THRESHOLD, -1) <= 0) {
                    return -1;
                }
            }
        }
    }
}
