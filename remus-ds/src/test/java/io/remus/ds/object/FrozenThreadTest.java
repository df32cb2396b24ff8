package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress shown on the simulator: one thread is frozen in the middle of an operation on an object
 * ({@link SimFabric#freeze}: parked between two of its RDMA operations, or before the only one), and
 * every other thread keeps completing operations, each within the object's stated per-call bound,
 * while it stays frozen; released, its operation completes and the object's final state accounts for
 * every operation. A spin-lock counter built here is the control: freezing its lock holder stops the
 * others, and the same harness sees it.
 *
 * <p>The objects live on node 1; the frozen thread runs on node 0 and the live ones on nodes 0 and 2,
 * so that every operation of theirs goes through the fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrozenThreadTest {
    private static final int HOME = 1;
    private static final int LIVE = 4;
    private static final int OPS = 300;
    private static final int[] LIVE_NODES = {0, 2, 0, 2};
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(90);

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    /** The operation a frozen worker runs once told to, made by its setup on its own compute thread. */
    @FunctionalInterface
    private interface Operation {
        long run() throws Exception;
    }

    /** What a frozen worker does on its compute thread before the operation that is frozen. */
    @FunctionalInterface
    private interface Setup {
        Operation prepare(ComputeThread t) throws Exception;
    }

    /**
     * A thread with a compute thread on node 0 that prepares its operation, then waits to be told,
     * then runs it; {@link #freezeAfter} arms the freeze between the two.
     */
    private static final class FrozenWorker {
        private final CountDownLatch ready = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private final CompletableFuture<Long> done = new CompletableFuture<>();
        private final Thread thread;

        FrozenWorker(TestCluster c, Setup setup) {
            thread = new Thread(() -> {
                try (ComputeThread t = c.thread(0)) {
                    Operation op = setup.prepare(t);
                    ready.countDown();
                    if (!go.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to go");
                    }
                    done.complete(op.run());
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "frozen@node0");
            thread.setDaemon(true);
            thread.start();
        }

        /**
         * Freezes the worker before the work request that follows the first {@code skip} its operation
         * applies, lets it go, and waits until it is parked there.
         */
        SimFreeze freezeAfter(TestCluster c, int skip, Opcode expected) throws InterruptedException {
            return freezeAfter(c, null, skip, expected);
        }

        /**
         * As {@link #freezeAfter(TestCluster, int, Opcode)}, counting only work requests of
         * {@code counted} (all when null).
         */
        SimFreeze freezeAfter(TestCluster c, Opcode counted, int skip, Opcode expected) throws InterruptedException {
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the frozen worker prepared its operation");
            assertFalse(done.isCompletedExceptionally(), () -> "the frozen worker's setup failed: " + done);
            SimFabric sim = (SimFabric) c.fabric();
            SimFreeze freeze = counted == null ? sim.freeze(thread, skip, MAX_FROZEN) : sim.freeze(thread, counted, skip, MAX_FROZEN);
            go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the worker reached the work request it is frozen before");
            assertEquals(expected, freeze.frozenAt(), "frozen before the expected work request");
            return freeze;
        }

        void assertStillFrozen(SimFreeze freeze) {
            assertTrue(freeze.isFrozen(), "the frozen thread stayed frozen while the others ran");
            assertFalse(done.isDone(), "its operation did not complete meanwhile");
        }

        long releaseAndAwait(SimFreeze freeze) throws Exception {
            freeze.release();
            long result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertFalse(freeze.expired(), "released by the test, not by the freeze's deadline");
            return result;
        }
    }

    @Test
    void shouldKeepHandingOutCounterValuesWhileOneAddIsFrozenAndCountItOnceReleased() throws Exception {
        long delta = 1_000_000;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteCounter.create(t, HOME, 0).ptr();
            }
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                return () -> counter.fetchAndAdd(delta);
            });
            SimFreeze freeze = frozen.freezeAfter(c, 1, Opcode.FETCH_AND_ADD);
            long[][] got = new long[LIVE][OPS];
            c.runOnThreads(LIVE_NODES, (index, t) -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                for (int i = 0; i < OPS; i++) {
                    Contention.maybeYield();
                    Counts before = Counts.of(t);
                    got[index][i] = counter.fetchAndAdd(1);
                    assertEquals(new Counts(1, 1, 0, 0, 1, 8, 0), before.since(t),
                            "fetchAndAdd: one fetch-and-add and the handles word's READ, one round trip");
                    before = Counts.of(t);
                    long seen = counter.read();
                    assertEquals(new Counts(1, 1, 0, 0, 0, StructureIdentity.PREFIX_BYTES + 8, 0), before.since(t), "read: one READ");
                    assertTrue(seen > got[index][i] && seen < delta, "a read sees the own add and not the frozen one: " + seen);
                }
            });
            frozen.assertStillFrozen(freeze);
            long live = (long) LIVE * OPS;
            long[] all = Arrays.stream(got).flatMapToLong(Arrays::stream).sorted().toArray();
            for (int i = 0; i < all.length; i++) {
                assertEquals(i, all[i], "every value handed out exactly once while the add was frozen");
            }
            try (ComputeThread t = c.thread(2)) {
                assertEquals(live, RemoteCounter.attach(t, ptr).read(), "the frozen add has not taken effect");
            }
            assertEquals(live, frozen.releaseAndAwait(freeze), "released, the add takes effect after every live one");
            try (ComputeThread t = c.thread(2)) {
                assertEquals(live + delta, RemoteCounter.attach(t, ptr).read(), "the total is the sum of every add");
            }
        }
    }

    @Test
    void shouldHelpAFrozenWriteMaxAndKeepEveryOtherWithinItsBound() throws Exception {
        long frozenValue = 1_000_000;
        int users = LIVE + 1;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteMaxRegister.create(t, HOME, users + 2, -1).ptr();
            }
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                return () -> {
                    max.writeMax(frozenValue);
                    return max.read();
                };
            });
            SimFreeze freeze = frozen.freezeAfter(c, 1, Opcode.READ);
            AtomicLong ticket = new AtomicLong(frozenValue);
            Set<Long> written = ConcurrentHashMap.newKeySet();
            written.add(frozenValue);
            c.runOnThreads(LIVE_NODES, (index, t) -> {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                for (int i = 0; i < OPS; i++) {
                    Contention.maybeYield();
                    long v = i < OPS / 2 ? 1 + ThreadLocalRandom.current().nextLong(frozenValue - 1) : ticket.incrementAndGet();
                    written.add(v);
                    Counts before = Counts.of(t);
                    max.writeMax(v);
                    Counts w = before.since(t);
                    assertTrue(w.roundTrips() <= 1 + users, "writeMax: at most 1 + n round trips " + w);
                    assertTrue(w.compareAndSwaps() <= 1 + users, "writeMax: the announcement and at most n = " + users
                            + " compare-and-swaps " + w);
                    assertTrue(w.writes() == 0 && w.fetchAndAdds() == 0, "writeMax operations " + w);
                    before = Counts.of(t);
                    long r = max.read();
                    assertEquals(new Counts(1, 1, 0, 0, 0, StructureIdentity.PREFIX_BYTES + 8, 0), before.since(t), "read: one READ");
                    assertTrue(r >= Math.max(v, frozenValue), "after writeMax(" + v + ") read " + r
                            + ": every live write helps the frozen announcement of " + frozenValue);
                    assertTrue(written.contains(r), "read " + r + ", which nobody wrote");
                }
            });
            frozen.assertStillFrozen(freeze);
            long highest = ticket.get();
            assertTrue(highest > frozenValue, "live writes went past the frozen one");
            assertEquals(highest, frozen.releaseAndAwait(freeze), "released, the frozen write returns, already helped");
            try (ComputeThread t = c.thread(2)) {
                assertEquals(highest, RemoteMaxRegister.attach(t, ptr).read(), "the register holds the largest value written");
            }
        }
    }

    private static final int SIZE = 64;

    private static void fill(MemorySegment value, long word) {
        for (int i = 0; i < SIZE; i += 8) {
            value.set(ValueLayout.JAVA_LONG_UNALIGNED, i, word);
        }
    }

    private static long wordOf(MemorySegment value) {
        long w = value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        for (int i = 8; i < SIZE; i += 8) {
            assertEquals(w, value.get(ValueLayout.JAVA_LONG_UNALIGNED, i), "torn value at word " + i / 8);
        }
        return w;
    }

    /**
     * Live threads of the register tests: each writes {@code (index + 1) << 32 | i} for i = 1..OPS and
     * reads after each write, asserting the per-call bounds and that every read returns a whole value
     * some live write wrote.
     */
    private static TestCluster.ThreadWork liveRegisterWork(long ptr) {
        AtomicLongArray lastWritten = new AtomicLongArray(LIVE);
        return (index, t) -> {
            try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                RemoteRegister reg = RemoteRegister.attach(t, reclaimer, ptr);
                MemorySegment value = MemorySegment.ofArray(new byte[SIZE]);
                for (int i = 1; i <= OPS; i++) {
                    Contention.maybeYield();
                    fill(value, ((long) (index + 1) << 32) | i);
                    long allocRt = reg.allocatorRoundTrips();
                    long allocCas = reg.allocatorCompareAndSwaps();
                    Counts before = Counts.of(t);
                    reg.write(value);
                    Counts w = before.since(t);
                    long ownRt = w.roundTrips() - (reg.allocatorRoundTrips() - allocRt);
                    long ownCas = w.compareAndSwaps() - (reg.allocatorCompareAndSwaps() - allocCas);
                    assertTrue(ownRt >= 1 && ownRt <= 2, "write: 1 or 2 round trips besides the allocator " + w);
                    assertTrue(ownCas >= 1 && ownCas <= 2, "write: 1 or 2 compare-and-swaps besides the allocator " + w);
                    lastWritten.set(index, i);
                    before = Counts.of(t);
                    reg.read(value);
                    assertEquals(new Counts(2, 2, 0, 0, 0, StructureIdentity.PREFIX_BYTES + 8 + SIZE, 0), before.since(t),
                            "read: two READs");
                    long got = wordOf(value);
                    int writer = (int) (got >>> 32);
                    long seq = got & 0xFFFF_FFFFL;
                    assertTrue(writer >= 1 && writer <= LIVE && seq >= 1 && seq <= lastWritten.get(writer - 1) + 1,
                            "read a value no live write wrote: 0x" + Long.toHexString(got));
                }
            }
        };
    }

    @Test
    void shouldKeepWritingARegisterWhileAReadIsFrozenBetweenItsTwoReadsAndLetThatReadFinishWhole() throws Exception {
        long initial = 0x7777_0000_0000_0000L;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                MemorySegment v = MemorySegment.ofArray(new byte[SIZE]);
                fill(v, initial);
                ptr = RemoteRegister.create(t, r, HOME, v).ptr();
            }
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                NeverReclaimer reclaimer = new NeverReclaimer(t);
                RemoteRegister reg = RemoteRegister.attach(t, reclaimer, ptr);
                MemorySegment into = MemorySegment.ofArray(new byte[SIZE]);
                return () -> {
                    reg.read(into);
                    return wordOf(into);
                };
            });
            SimFreeze freeze = frozen.freezeAfter(c, 1, Opcode.READ);
            c.runOnThreads(LIVE_NODES, liveRegisterWork(ptr));
            frozen.assertStillFrozen(freeze);
            assertEquals(initial, frozen.releaseAndAwait(freeze),
                    "released, the frozen read returns, whole, the value current when it read the pointer");
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t)) {
                MemorySegment last = MemorySegment.ofArray(new byte[SIZE]);
                RemoteRegister.attach(t, r, ptr).read(last);
                long got = wordOf(last);
                int writer = (int) (got >>> 32);
                assertTrue(writer >= 1 && writer <= LIVE && (got & 0xFFFF_FFFFL) == OPS,
                        "the register holds some thread's last write: 0x" + Long.toHexString(got));
            }
        }
    }

    @Test
    void shouldKeepWritingARegisterWhileAWriteIsFrozenBetweenItsWriteAndItsCompareAndSwap() throws Exception {
        long mark = 0x5555_0000_0000_0001L;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = RemoteRegister.create(t, r, HOME, new byte[SIZE]).ptr();
            }
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                NeverReclaimer reclaimer = new NeverReclaimer(t);
                RemoteRegister reg = RemoteRegister.attach(t, reclaimer, ptr);
                MemorySegment value = MemorySegment.ofArray(new byte[SIZE]);
                fill(value, mark);
                return () -> {
                    long allocCas = reg.allocatorCompareAndSwaps();
                    Counts before = Counts.of(t);
                    reg.write(value);
                    return before.since(t).compareAndSwaps() - (reg.allocatorCompareAndSwaps() - allocCas);
                };
            });
            SimFreeze freeze = frozen.freezeAfter(c, Opcode.WRITE, 1, Opcode.COMPARE_AND_SWAP);
            c.runOnThreads(LIVE_NODES, liveRegisterWork(ptr));
            frozen.assertStillFrozen(freeze);
            assertEquals(2, frozen.releaseAndAwait(freeze),
                    "released, its compare-and-swap fails on the live writes and the second one publishes it");
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t)) {
                MemorySegment last = MemorySegment.ofArray(new byte[SIZE]);
                RemoteRegister.attach(t, r, ptr).read(last);
                assertEquals(mark, wordOf(last), "the frozen write, completed last, is the register's value");
            }
        }
    }

    private static final int ROW_BYTES = 32;

    private static MemorySegment row(long word) {
        MemorySegment row = MemorySegment.ofArray(new byte[ROW_BYTES]);
        for (int i = 0; i < ROW_BYTES; i += 8) {
            row.set(ValueLayout.JAVA_LONG_UNALIGNED, i, word);
        }
        return row;
    }

    private static long rowWord(MemorySegment rows, long offset) {
        long w = rows.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        for (int i = 8; i < ROW_BYTES; i += 8) {
            assertEquals(w, rows.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i), "torn row at +" + offset);
        }
        return w;
    }

    @Test
    void shouldKeepWritingAndReadingTheTableWhileOneRowWriteIsFrozen() throws Exception {
        int rows = LIVE + 2;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = SharedStateTable.create(t, HOME, rows, ROW_BYTES).ptr();
            }
            AtomicInteger frozenRow = new AtomicInteger(-1);
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                SharedStateTable sst = SharedStateTable.attach(t, ptr);
                frozenRow.set(sst.row());
                assertEquals(1, sst.write(row(((long) sst.row() << 32) | 1)));
                return () -> sst.write(row(((long) sst.row() << 32) | 2));
            });
            SimFreeze freeze = frozen.freezeAfter(c, 1, Opcode.WRITE);
            int stuck = frozenRow.get();
            int stride = SharedStateTable.stride(ROW_BYTES);
            c.runOnThreads(LIVE_NODES, (index, t) -> {
                SharedStateTable sst = SharedStateTable.attach(t, ptr);
                int mine = sst.row();
                MemorySegment one = MemorySegment.ofArray(new byte[ROW_BYTES]);
                MemorySegment all = MemorySegment.ofArray(new byte[rows * ROW_BYTES]);
                long[] versions = new long[rows];
                long[] last = new long[rows];
                for (int i = 1; i <= OPS; i++) {
                    Contention.maybeYield();
                    Counts before = Counts.of(t);
                    assertEquals(i, sst.write(row(((long) mine << 32) | i)));
                    assertEquals(new Counts(1, 1, 1, 0, 0, 8, stride), before.since(t), "write: one WRITE of the row, the handles word's READ");
                    before = Counts.of(t);
                    assertEquals(1, sst.readRow(stuck, one), "the frozen row keeps its last completed write");
                    assertEquals(new Counts(1, 2, 0, 0, 0, stride + 8, 0), before.since(t),
                            "readRow of the frozen row: one READ and the handles word's, nothing in flight can tear it");
                    assertEquals(((long) stuck << 32) | 1, rowWord(one, 0));
                    sst.snapshot(all, versions);
                    for (int r = 0; r < rows; r++) {
                        assertTrue(versions[r] >= last[r], "row " + r + " went back from version " + last[r] + " to " + versions[r]);
                        last[r] = versions[r];
                        long w = rowWord(all, (long) r * ROW_BYTES);
                        assertEquals(versions[r] == 0 ? 0 : ((long) r << 32) | versions[r], w, "row " + r + " holds its owner's write");
                    }
                    assertEquals(i, versions[mine], "a snapshot sees the own last write");
                    assertEquals(1, versions[stuck], "a snapshot sees the frozen row at its last completed write");
                }
            });
            frozen.assertStillFrozen(freeze);
            assertEquals(2, frozen.releaseAndAwait(freeze), "released, the frozen write completes as version 2");
            try (ComputeThread t = c.thread(2)) {
                SharedStateTable sst = SharedStateTable.attachReader(t, ptr);
                MemorySegment one = MemorySegment.ofArray(new byte[ROW_BYTES]);
                assertEquals(2, sst.readRow(stuck, one));
                assertEquals(((long) stuck << 32) | 2, rowWord(one, 0));
                for (int r = 0; r < rows; r++) {
                    if (r != stuck && r != 0) {
                        assertEquals(OPS, sst.readRow(r, one), "live row " + r + " holds its last write");
                    }
                }
            }
        }
    }

    /**
     * The control: a counter behind a spin lock (word 0: the lock, 0 or its holder's id; word 8: the
     * value), taken by compare-and-swap, the value READ then written, the lock written back to 0. Not
     * wait-free: whoever waits for the lock waits for its holder.
     */
    private static final class SpinLockCounter {
        private final ComputeThread t;
        private final long lock;
        private final long value;
        private final long id;

        SpinLockCounter(ComputeThread t, long ptr, long id) {
            this.t = t;
            this.lock = ptr;
            this.value = RemotePtr.offset(ptr, 8);
            this.id = id;
        }

        /** @return whether the increment completed within {@code attempts} tries of the lock */
        boolean increment(int attempts) {
            for (int i = 0; i < attempts; i++) {
                if (t.compareAndSwap(lock, 0, id) == 0) {
                    t.write(value, t.read(value) + 1);
                    t.write(lock, 0);
                    return true;
                }
                Contention.maybeYield();
            }
            return false;
        }
    }

    @Test
    void shouldSeeTheOthersStopWhenTheHolderOfASpinLockIsFrozen() throws Exception {
        int bound = 1000;
        try (TestCluster c = cluster()) {
            long ptr = c.block(HOME, 16);
            FrozenWorker frozen = new FrozenWorker(c, t -> {
                SpinLockCounter counter = new SpinLockCounter(t, ptr, 1000);
                return () -> counter.increment(1) ? 1 : 0;
            });
            SimFreeze freeze = frozen.freezeAfter(c, 1, Opcode.READ);
            AtomicInteger completed = new AtomicInteger();
            CountDownLatch stalled = new CountDownLatch(LIVE);
            CountDownLatch released = new CountDownLatch(1);
            Thread releaser = new Thread(() -> {
                try {
                    if (stalled.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        freeze.release();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    released.countDown();
                }
            }, "releaser");
            releaser.setDaemon(true);
            releaser.start();
            c.runOnThreads(LIVE_NODES, (index, t) -> {
                SpinLockCounter counter = new SpinLockCounter(t, ptr, index + 1);
                Counts before = Counts.of(t);
                boolean done = counter.increment(bound);
                Counts tried = before.since(t);
                assertTrue(freeze.isFrozen(), "the holder stayed frozen while this thread tried");
                stalled.countDown();
                assertFalse(done, "an increment completed while the lock holder was frozen");
                assertEquals(new Counts(bound, 0, 0, bound, 0, 0, 0), tried, "it spent its whole bound on the lock");
                assertTrue(released.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                assertTrue(counter.increment(1_000_000), "once the holder goes on, the increment completes");
                completed.incrementAndGet();
            });
            assertTrue(freeze.awaitResumed(WAIT) && !freeze.expired(), "the holder was released by the test");
            assertEquals(1, frozen.done.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(LIVE, completed.get());
            assertEquals(LIVE + 1, c.raw(RemotePtr.offset(ptr, 8), 8).get(ValueLayout.JAVA_LONG, 0),
                    "every increment counted once the holder went on");
        }
    }
}
