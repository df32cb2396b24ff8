package io.remus.ds.queue;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
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
 * {@link MpmcCrashTolerantQueue}: the MPMC queue contract ({@link MpmcQueueContractTest}) with its exactly-once run
 * by producers and consumers of zero patience whose polls poison every claim in flight, the spare cells, the
 * per-call RDMA operations, and linearizable histories of two producers and two consumers on three nodes on a
 * hostile simulator, both with patient polls (full exact) and with polls that poison at once (full may come
 * early), with two broken twins the same check catches.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MpmcCrashTolerantQueueTest extends MpmcQueueContractTest<MpmcCrashTolerantQueue> {
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    /** Seeds of each history check. */
    int historySeeds() {
        return 25;
    }

    /** The most seeds a broken twin is raced over before the test gives up on catching it. */
    int twinSeeds() {
        return 160;
    }

    @Override
    StructureKind kind() {
        return StructureKind.MPMC_CRASH_TOLERANT_QUEUE;
    }

    @Override
    int maxCapacity() {
        return MpmcCrashTolerantQueue.MAX_CAPACITY;
    }

    @Override
    MpmcCrashTolerantQueue create(ComputeThread t, int capacity, int spareCells) {
        return MpmcCrashTolerantQueue.create(t, capacity, spareCells);
    }

    @Override
    MpmcCrashTolerantQueue attach(ComputeThread t, long ptr) {
        return MpmcCrashTolerantQueue.attach(t, ptr);
    }

    @Override
    long bytes(int capacity, int spareCells) {
        return MpmcCrashTolerantQueue.bytes(capacity, capacity + spareCells);
    }

    @Override
    long ptr(MpmcCrashTolerantQueue q) {
        return q.ptr();
    }

    @Override
    int capacity(MpmcCrashTolerantQueue q) {
        return q.capacity();
    }

    @Override
    boolean offer(MpmcCrashTolerantQueue q, long value, Duration patience) {
        return q.offer(value, patience);
    }

    @Override
    OptionalLong poll(MpmcCrashTolerantQueue q, Duration patience) {
        return q.poll(patience);
    }

    @Override
    void close(MpmcCrashTolerantQueue q) {
        q.close();
    }

    @Override
    void destroy(MpmcCrashTolerantQueue q) {
        q.destroy();
    }

    @Override
    CheckResult checkedHistory(Function<SimOptions, Fabric> make, long seed) throws InterruptedException {
        return raceAndCheck(make, seed, PATIENCE, Twin.NONE);
    }

    @Override
    void checkFifoRun(MpmcCrashTolerantQueue producer, MpmcCrashTolerantQueue consumer) {
        assertEquals(consumer.capacity() + 1, consumer.cells());
        assertEquals(0, producer.poisonedPublications() + consumer.poisoned() + consumer.lostCells());
    }

    @Override
    void refuseOwnBadArguments(ComputeThread home, MpmcCrashTolerantQueue remote) {
        for (int bad : new int[] {-1, MpmcCrashTolerantQueue.MAX_CELLS}) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> MpmcCrashTolerantQueue.create(home, 4, bad));
            assertTrue(e.getMessage().contains("got " + bad), e.getMessage());
        }
        Duration negative = Duration.ofMillis(-5);
        assertTrue(assertThrows(BadArgumentException.class, () -> remote.offer(1, negative)).getMessage().contains("PT-0.005S"));
        assertTrue(assertThrows(BadArgumentException.class, () -> remote.poll(negative)).getMessage().contains("PT-0.005S"));
        assertThrows(NullPointerException.class, () -> remote.poll(null));
    }

    /** Offers and polls with zero patience: polls poison every claim in flight. */
    @Override
    Duration raceOfferPatience() {
        return Duration.ZERO;
    }

    @Override
    Duration racePollPatience() {
        return Duration.ZERO;
    }

    @Override
    int raceRounds() {
        return 8;
    }

    @Override
    long[] raceCounters(MpmcCrashTolerantQueue q) {
        return new long[] {q.poisoned(), q.poisonedPublications()};
    }

    @Override
    boolean raced(long[] counters) {
        assertTrue(counters[1] <= counters[0], "a publication fails only on a poisoned ticket");
        return counters[0] > 0;
    }

    @Override
    String raceGoal() {
        return "polls with zero patience poisoned claims in flight";
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostSevenRoundTripsPerOfferAndPollAndTwoWhenEmptyOrOutOfCells(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { });
             ComputeThread home = c.thread(HOME); ComputeThread pt = c.thread(1); ComputeThread ct = c.thread(2)) {
            MpmcCrashTolerantQueue created = MpmcCrashTolerantQueue.create(home, 2, 1);
            Ops before = Ops.of(pt);
            MpmcCrashTolerantQueue producer = MpmcCrashTolerantQueue.attach(pt, created.ptr());
            assertEquals(new Ops(2, 1, 0, 1, 0), before.since(pt), "attach: one READ of the header, the handles word's compare-and-swap");
            MpmcCrashTolerantQueue consumer = MpmcCrashTolerantQueue.attach(ct, created.ptr());

            before = Ops.of(ct);
            assertTrue(consumer.poll(PATIENCE).isEmpty());
            assertEquals(new Ops(2, 3, 0, 0, 0), before.since(ct),
                    "empty poll: READ of the entry and of the block header in one doorbell, READ of the tail");
            for (int i = 0; i < 2; i++) {
                before = Ops.of(pt);
                assertTrue(producer.offer(i, PATIENCE));
                assertEquals(new Ops(7, 3, 1, 4, 0), before.since(pt), "offer: free ring READ with the block header in one"
                        + " doorbell, CAS head, CAS entry; WRITE cell; allocated ring READ, CAS tail, CAS entry");
            }
            before = Ops.of(pt);
            assertFalse(producer.offer(2, PATIENCE));
            assertEquals(new Ops(9, 5, 1, 4, 0), before.since(pt),
                    "full offer: a cell taken and written, the allocated ring's entry and head READ, the cell given back");
            before = Ops.of(ct);
            assertEquals(OptionalLong.of(0), consumer.poll(PATIENCE));
            assertEquals(new Ops(9, 6, 0, 4, 0), before.since(ct),
                    "poll whose view of the free ring's tail is stale (the full offer gave a cell back): one more READ of"
                            + " the entry and one of the tail");
            before = Ops.of(ct);
            long bytesRead = ct.bytesRead();
            assertEquals(OptionalLong.of(1), consumer.poll(PATIENCE));
            assertEquals(new Ops(7, 4, 0, 4, 0), before.since(ct), "poll: allocated ring READ with the block header in one"
                    + " doorbell, CAS head, CAS entry; READ cell; free ring READ, CAS tail, CAS entry");
            assertEquals(32, ct.bytesRead() - bytesRead, "the entry and the block header, the cell, the free ring's entry");
            assertTrue(consumer.poll(PATIENCE).isEmpty());
            created.destroy();

            MpmcCrashTolerantQueue one = MpmcCrashTolerantQueue.create(home, 1, 0);
            MpmcCrashTolerantQueue p1 = MpmcCrashTolerantQueue.attach(pt, one.ptr());
            assertTrue(p1.offer(5, PATIENCE));
            before = Ops.of(pt);
            assertFalse(p1.offer(6, PATIENCE));
            assertEquals(new Ops(2, 3, 0, 0, 0), before.since(pt),
                    "no free cell: READ of the free ring's entry and of the block header in one doorbell, READ of its tail");
            before = Ops.of(home);
            assertEquals(OptionalLong.of(5), one.poll(PATIENCE));
            assertEquals(new Ops(4, 0, 0, 4, 0), before.since(home),
                    "on the queue's own node the READs (entries, block header, cell) are CPU loads");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCheckAsLinearizableWithExactFullWhenPollsArePatient(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        for (long seed = 1; seed <= historySeeds(); seed++) {
            CheckResult r = raceAndCheck(make, seed, PATIENCE, Twin.NONE);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), "seed " + seed + ": " + r);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCheckAsLinearizableWhenPollsPoisonEveryClaimInFlight(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        for (long seed = 1; seed <= historySeeds(); seed++) {
            CheckResult r = raceAndCheck(make, seed, Duration.ZERO, Twin.NONE);
            assertEquals(Verdict.LINEARIZABLE, r.verdict(), "seed " + seed + ": " + r);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchTheBrokenTwinThatPublishesWithAWriteOverAPoisonedEntry(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        assertCaught(make, Twin.PUBLISH_BY_WRITE);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchTheBrokenTwinThatWritesTheCellAfterPublishingIt(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        assertCaught(make, Twin.CELL_AFTER_PUBLISH);
    }

    private void assertCaught(Function<SimOptions, Fabric> make, Twin twin) throws InterruptedException {
        boolean caught = false;
        for (long seed = 1; seed <= twinSeeds() && !caught; seed++) {
            CheckResult r = raceAndCheck(make, seed, Duration.ZERO, twin);
            assertTrue(r.verdict() != Verdict.UNKNOWN, "seed " + seed + ": the checker ran out of budget");
            caught = r.verdict() == Verdict.NOT_LINEARIZABLE;
        }
        assertTrue(caught, "the checker never caught the twin " + twin);
    }

    /** Which queue the history runs: the real one, or a broken twin. */
    enum Twin {
        NONE,
        /** A producer publishes its entry with a WRITE, not a compare-and-swap, so it overwrites a poisoned entry. */
        PUBLISH_BY_WRITE,
        /** A producer publishes its cell's index before it WRITEs the value into the cell. */
        CELL_AFTER_PUBLISH
    }

    /**
     * Two producers (nodes 1 and 2) each offer 30 distinct words (once each, full or not), and two consumers
     * (nodes 0 and 1) poll 40 times each with {@code pollPatience}, all recording and yielding at random, on a
     * queue of capacity 2 with 4 spare cells on node 0; then one more caller polls until the queue answers
     * empty. The history is checked as a FIFO of 2 words whose full offers and empty polls are operations too;
     * with zero patience, full may come early (a claim counted full may be poisoned after).
     */
    private CheckResult raceAndCheck(Function<SimOptions, Fabric> make, long seed, Duration pollPatience, Twin twin)
            throws InterruptedException {
        int capacity = 2;
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[5];
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = history.recorder(i);
        }
        SimOptions options = twin == Twin.NONE ? hostile()
                : hostile().withTearReads(false);
        try (TestCluster c = new TestCluster(make, options, 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(HOME)) {
                ptr = MpmcCrashTolerantQueue.create(t, capacity, 4).ptr();
            }
            CyclicBarrier start = new CyclicBarrier(4);
            c.runOnThreads(new int[] {1, 2, 0, 1}, (index, t) -> {
                SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + index);
                History.Recorder r = recorders[index];
                MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
                BrokenQueue broken = twin == Twin.NONE ? null : new BrokenQueue(t, ptr, twin);
                start.await(30, TimeUnit.SECONDS);
                if (index < 2) {
                    for (int i = 0; i < 30; i++) {
                        long v = seed * 1_000_000 + index * 1000L + i + 1;
                        maybeYield(rnd);
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        boolean ok;
                        try {
                            ok = broken == null ? q.offer(v, PATIENCE) : broken.offer(v);
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
                            v = broken == null ? q.poll(pollPatience) : broken.poll();
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
                MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
                BrokenQueue broken = twin == Twin.NONE ? null : new BrokenQueue(t, ptr, twin);
                for (int i = 0; i < 2 * capacity + 4; i++) {
                    int op = recorders[4].invoke(BoundedContainerSpec.TAKE);
                    OptionalLong v;
                    try {
                        v = broken == null ? q.poll(PATIENCE) : broken.poll();
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
        boolean earlyFull = pollPatience.isZero();
        return CHECKER.check(history.operations(), new BoundedContainerSpec(true, capacity, earlyFull));
    }

    private static void maybeYield(SplittableRandom rnd) {
        if (rnd.nextInt(3) == 0) {
            Thread.yield();
        }
    }

    /**
     * The broken twins: the queue's layout and protocol with one step wrong ({@link Twin}), no deadlines (polls
     * poison a claim in flight at once), fresh tails and heads each call. A call that loops longer than
     * {@link TwinStuckException#BOUND} throws {@link TwinStuckException}: a wrong step can wedge the twin for good.
     */
    private static final class BrokenQueue {
        private final ComputeThread t;
        private long stuckAt;
        private final long ptr;
        private final int capacity;
        private final int cells;
        private final Twin twin;

        BrokenQueue(ComputeThread t, long ptr, Twin twin) {
            this.t = t;
            this.ptr = ptr;
            this.capacity = (int) t.read(ptr + MpmcCrashTolerantQueue.CAPACITY);
            this.cells = (int) t.read(ptr + MpmcCrashTolerantQueue.CELLS);
            this.twin = twin;
        }

        private long cell(int index) {
            return ptr + MpmcCrashTolerantQueue.HEADER_BYTES + 8L * capacity + 8L * cells + 8L * index;
        }

        private void startCall() {
            stuckAt = TwinStuckException.deadline();
        }

        private void checkStuck() {
            TwinStuckException.check(stuckAt);
        }

        boolean offer(long value) {
            startCall();
            int index = take(false);
            if (index < 0) {
                return false;
            }
            if (twin != Twin.CELL_AFTER_PUBLISH) {
                t.write(cell(index), value);
            }
            boolean put = put(true, index, () -> {
                if (twin == Twin.CELL_AFTER_PUBLISH) {
                    LockSupport.parkNanos(200_000);
                    t.write(cell(index), value);
                }
            });
            if (!put) {
                while (!put(false, index, () -> { })) {
                    checkStuck();
                    Thread.yield();
                }
            }
            return put;
        }

        OptionalLong poll() {
            startCall();
            int index = take(true);
            if (index < 0) {
                return OptionalLong.empty();
            }
            long value = t.read(cell(index));
            while (!put(false, index, () -> { })) {
                checkStuck();
                Thread.yield();
            }
            return OptionalLong.of(value);
        }

        private long entry(boolean allocated, long ticket) {
            long base = ptr + MpmcCrashTolerantQueue.HEADER_BYTES + (allocated ? 0 : 8L * capacity);
            return base + 8L * Math.floorMod(ticket, allocated ? capacity : cells);
        }

        private int take(boolean allocated) {
            long tailWord = ptr + (allocated ? MpmcCrashTolerantQueue.ALLOC_TAIL : MpmcCrashTolerantQueue.FREE_TAIL);
            long headWord = ptr + (allocated ? MpmcCrashTolerantQueue.ALLOC_HEAD : MpmcCrashTolerantQueue.FREE_HEAD);
            int size = allocated ? capacity : cells;
            long pos = t.read(headWord);
            while (true) {
                checkStuck();
                long at = entry(allocated, pos);
                long e = t.read(at);
                long s = MpmcCrashTolerantQueue.state(e);
                if (s == 2 * pos + 1) {
                    if (t.compareAndSwap(headWord, pos, pos + 1) != pos) {
                        pos = t.read(headWord);
                        continue;
                    }
                    t.compareAndSwap(at, e, MpmcCrashTolerantQueue.word(2 * (pos + size), 0));
                    int index = MpmcCrashTolerantQueue.index(e);
                    if (index != MpmcCrashTolerantQueue.NONE) {
                        return index;
                    }
                    pos++;
                } else if (s > 2 * pos + 1) {
                    pos = t.read(headWord);
                } else if (t.read(tailWord) <= pos) {
                    return -1;
                } else if (s == 2 * pos) {
                    long claimed = MpmcCrashTolerantQueue.word(2 * pos, 0);
                    t.compareAndSwap(at, claimed, MpmcCrashTolerantQueue.word(2 * pos + 1, MpmcCrashTolerantQueue.NONE));
                } else {
                    Thread.yield();
                }
            }
        }

        private boolean put(boolean allocated, int index, Runnable afterPublish) {
            long tailWord = ptr + (allocated ? MpmcCrashTolerantQueue.ALLOC_TAIL : MpmcCrashTolerantQueue.FREE_TAIL);
            long headWord = ptr + (allocated ? MpmcCrashTolerantQueue.ALLOC_HEAD : MpmcCrashTolerantQueue.FREE_HEAD);
            int size = allocated ? capacity : cells;
            long pos = t.read(tailWord);
            while (true) {
                checkStuck();
                long at = entry(allocated, pos);
                long e = t.read(at);
                long s = MpmcCrashTolerantQueue.state(e);
                if (s == 2 * pos) {
                    if (t.compareAndSwap(tailWord, pos, pos + 1) != pos) {
                        pos = t.read(tailWord);
                        continue;
                    }
                    long claimed = MpmcCrashTolerantQueue.word(2 * pos, 0);
                    long published = MpmcCrashTolerantQueue.word(2 * pos + 1, index);
                    if (allocated && twin == Twin.PUBLISH_BY_WRITE) {
                        // As a producer descheduled between its claim and its publication: the window a poll poisons.
                        LockSupport.parkNanos(200_000);
                        t.write(at, published);
                        return true;
                    }
                    if (allocated && twin == Twin.CELL_AFTER_PUBLISH) {
                        if (t.compareAndSwap(at, claimed, published) == claimed) {
                            afterPublish.run();
                            return true;
                        }
                        pos++;
                        continue;
                    }
                    if (t.compareAndSwap(at, claimed, published) == claimed) {
                        return true;
                    }
                    pos++;
                } else if (s > 2 * pos) {
                    pos = t.read(tailWord);
                } else {
                    long h = t.read(headWord);
                    if (pos - h >= size) {
                        if (h == pos - size && e == MpmcCrashTolerantQueue.word(2 * h + 1, MpmcCrashTolerantQueue.NONE)) {
                            t.compareAndSwap(headWord, h, h + 1);
                            continue;
                        }
                        return false;
                    }
                    if (s == 2 * (pos - size) + 1) {
                        t.compareAndSwap(at, e, MpmcCrashTolerantQueue.word(2 * pos, 0));
                    } else {
                        Thread.yield();
                    }
                }
            }
        }
    }
}
