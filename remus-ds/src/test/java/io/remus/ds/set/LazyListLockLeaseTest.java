package io.remus.ds.set;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A {@link LazyListSet} lock wait never outlasts the waiter's lease: with a lock holder stalled longer than
 * the lease, on a node that another thread removed and its reclaimer frees (poisoned, {@link
 * SimOptions#poisonFreedBlocks()}), the waiter starts over in a fresh guard and completes without the removed
 * node, instead of spinning on its freed lock word; with the holder stalled on a linked node, the waiter starts
 * over until its call's deadline and then throws {@link LockTimeoutException}. The set stays usable, and the
 * stalled holder's late release cannot change the reused word. A queue lock's waiter (MCS, ALock), which cannot
 * leave the queue, renews its lease instead and gets the lock when the holder releases it, round after round, the
 * lock word intact. A {@link LazyListSet} holder frozen past its own
 * lease releases its locks when it resumes and starts over. A lock whose holder died (never released) times out
 * every call that needs it, again and again, and no other.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LazyListLockLeaseTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(30);
    /** The waiter's lease: much shorter than its lock timeout, which the defaults also have (1 s and 10 s). */
    private static final Duration SHORT_LEASE = Duration.ofMillis(200);
    private static final LockOptions LOCKS = SetMaker.LOCKS.withAcquireTimeout(Duration.ofSeconds(3));
    private static final EpochOptions LONG = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(Duration.ofSeconds(60));

    /** A thread on node 0 whose set handle (lease {@link #SHORT_LEASE}) runs one call once told to go. */
    private static final class Waiter {
        private final CountDownLatch ready = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private final CompletableFuture<Boolean> done = new CompletableFuture<>();
        private volatile long leaseCuts;
        private final Thread thread;

        Waiter(TestCluster c, long ptr, ToLongFunction<LazyListSet> call) {
            thread = new Thread(() -> {
                EpochOptions shortLease = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(SHORT_LEASE);
                try (ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), shortLease);
                     LazyListSet s = LazyListSet.attach(new LockContext(t, LOCKS), r, ptr)) {
                    assertFalse(s.insert(10), "present: the handle keeps its spare node, so the call below allocates nothing");
                    ready.countDown();
                    if (!go.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to go");
                    }
                    try {
                        done.complete(call.applyAsLong(s) == 1);
                    } finally {
                        leaseCuts = s.leaseCutWaits();
                    }
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "waiter@node0");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), 3, b -> { });
    }

    /** The block of the node with {@code key}, found by walking the list with single READs. */
    private static long blockOf(ComputeThread t, long ptr, long key) {
        long node = t.read(ptr + ListLayout.HEAD);
        while (t.read(node + ListLayout.KEY) != key) {
            node = ListLayout.unmarked(t.read(node + ListLayout.NEXT));
        }
        return t.read(node + ListLayout.BLOCK);
    }

    @Test
    void shouldStartOverWithoutTheFreedNodeWhenItsLockHolderStallsLongerThanTheWaitersLease() throws Exception {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, LockKind.SPIN, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            long word20 = LazyListSet.lockWordOf(blockOf(t, ptr, 20));

            Waiter w = new Waiter(c, ptr, set -> set.insert(25) ? 1 : 0);
            assertTrue(w.ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            // The waiter's walk READs the head (with the root block's header) and keys 10, 20, 30; it is parked before
            // locking node 20, its predecessor.
            SimFreeze f = ((SimFabric) c.fabric()).freeze(w.thread, Opcode.READ, 5, MAX_FROZEN);
            w.go.countDown();
            assertTrue(f.awaitFrozen(WAIT), "the waiter reached node 20's lock");
            assertEquals(Opcode.COMPARE_AND_SWAP, f.frozenAt());

            assertTrue(s.remove(20), "removed and retired while the waiter still holds a reference to it");
            Lock stalled = LockKind.SPIN.open(new LockContext(t, LOCKS), word20);
            stalled.lock(); // a holder that took node 20's lock after the remove, and stalls holding it
            f.release();

            // Free node 20 as soon as no lease holds it back (the waiter's runs out, or it moved on to a fresh guard).
            long end = System.nanoTime() + WAIT.toNanos();
            while (r.unreclaimedBlocks() > 0) {
                assertTrue(System.nanoTime() - end < 0, "node 20 was never freed");
                r.reclaim();
                Thread.sleep(5);
            }

            boolean inserted;
            try {
                inserted = w.done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the waiter kept waiting on node 20's lock after its lease ran out, into freed memory: "
                        + e.getCause(), e.getCause());
            }
            assertTrue(inserted, "the waiter started over in a fresh guard, without the removed node");
            assertTrue(w.leaseCuts >= 1, "its wait was cut by its lease");

            assertTrue(s.insert(20), "a new node 20, in a fresh block or the freed one");
            assertThrows(LockUsageException.class, stalled::unlock,
                    "the holder's late release expects its own id in the word: it cannot change the freed or reused block");
            assertTrue(s.contains(10) && s.contains(20) && s.contains(25) && s.contains(30));
            assertTrue(s.remove(20) && s.remove(25) && s.insert(15));
            assertFalse(s.contains(20) || s.contains(25));
        }
    }

    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"MCS", "ALOCK"})
    void shouldRenewTheLeaseAndKeepTheQueueLockWorkingWhenItsHolderOutlastsTheWaitersLease(LockKind kind) throws Exception {
        Duration lease = Duration.ofMillis(400);
        long holdMillis = 3 * lease.toMillis();
        int rounds = 6; // more than a thread's queue nodes: a waiter that left a queue node behind each round would run out
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, kind, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20));
            Lock holder = kind.open(new LockContext(t, LOCKS), LazyListSet.lockWordOf(blockOf(t, ptr, 10)));
            Semaphore go = new Semaphore(0);
            Semaphore roundDone = new Semaphore(0);
            CompletableFuture<long[]> done = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                EpochOptions shortLease = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(lease);
                try (ComputeThread h = c.thread(0); EpochReclaimer hr = new EpochReclaimer(h, h.allocator(), shortLease);
                     LazyListSet hs = LazyListSet.attach(new LockContext(h, LOCKS), hr, ptr)) {
                    for (int round = 0; round < rounds; round++) {
                        assertTrue(go.tryAcquire(WAIT.toSeconds(), TimeUnit.SECONDS));
                        boolean changed = round % 2 == 0 ? hs.insert(15) : hs.remove(15); // node 10 is the predecessor
                        assertTrue(changed, "round " + round);
                        roundDone.release();
                    }
                    done.complete(new long[]{hs.leaseCutWaits(), hs.leaseRenewals(), hs.lateLocks(), hr.renewals()});
                } catch (Throwable e) {
                    roundDone.release(rounds);
                    done.completeExceptionally(e);
                }
            }, "waiter@node0");
            waiter.setDaemon(true);
            waiter.start();
            for (int round = 0; round < rounds && !done.isDone(); round++) {
                holder.lock();
                go.release();
                Thread.sleep(holdMillis); // the waiter queues behind the holder for three of its leases
                holder.unlock();
                assertTrue(roundDone.tryAcquire(WAIT.toSeconds(), TimeUnit.SECONDS), "round " + round + " never ended");
            }
            long[] counts;
            try {
                counts = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the waiter left the queue when its lease ran short: " + e.getCause(), e.getCause());
            }
            assertEquals(0, counts[0], "no wait was cut by the lease");
            assertEquals(0, counts[2], "no lock got after the lease ran out");
            assertTrue(counts[1] >= rounds, "each wait renewed the lease at least once: " + counts[1]);
            assertEquals(counts[1], counts[3], "the set's renewals are the reclaimer's");
            holder.lock();
            holder.unlock();
            assertTrue(s.insert(15) && s.remove(10) && s.contains(15) && s.contains(20), "the lock words still work");
            assertFalse(s.contains(10));
        }
    }

    @Test
    void shouldTimeOutEveryCallThatNeedsADeadHoldersLockAndNoOtherWhenItIsNeverReleased() {
        LockOptions shortWait = LOCKS.withAcquireTimeout(Duration.ofMillis(300));
        EpochOptions shortLease = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(Duration.ofMillis(100));
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), shortLease);
             LazyListSet s = LazyListSet.create(new LockContext(t, shortWait), r, LockKind.SPIN, SetHistories.HOME)) {
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            Lock dead = LockKind.SPIN.open(new LockContext(t, shortWait), LazyListSet.lockWordOf(blockOf(t, s.ptr(), 20)));
            dead.lock(); // node 20's holder died: never released
            for (int round = 0; round < 2; round++) {
                assertThrows(LockTimeoutException.class, () -> s.insert(15), "node 20 is the node found");
                assertThrows(LockTimeoutException.class, () -> s.remove(20), "node 20 is the node found");
                assertThrows(LockTimeoutException.class, () -> s.insert(25), "node 20 is the predecessor");
            }
            assertTrue(s.contains(10) && s.contains(20) && s.contains(30), "contains takes no lock");
            assertFalse(s.contains(15) || s.contains(25), "a call that timed out took no effect");
            assertTrue(s.insert(5) && s.remove(10) && s.insert(35) && s.remove(35), "keys whose nodes are not node 20 or next to it");
            assertThrows(LockTimeoutException.class, () -> s.remove(30), "node 20 is still the predecessor of 30");
        }
    }

    @Test
    void shouldStartOverUntilTheCallsDeadlineAndThenTimeOutWhenALinkedNodesHolderStalls() throws Exception {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, LockKind.SPIN, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20));
            Waiter w = new Waiter(c, ptr, set -> set.insert(15) ? 1 : 0);
            assertTrue(w.ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            Lock stalled = LockKind.SPIN.open(new LockContext(t, LOCKS), LazyListSet.lockWordOf(blockOf(t, ptr, 10)));
            stalled.lock(); // node 10's holder stalls for longer than the waiter's whole call
            w.go.countDown();
            ExecutionException e = assertThrows(ExecutionException.class, () -> w.done.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            if (!(e.getCause() instanceof LockTimeoutException)) {
                fail("expected a LockTimeoutException at the call's deadline", e.getCause());
            }
            assertTrue(w.leaseCuts >= 2, "each wait ended within the lease and the call started over, " + w.leaseCuts + " cuts; " + e.getCause());

            stalled.unlock(); // the holder resumes
            assertTrue(s.insert(15) && s.remove(10));
            assertTrue(s.contains(15) && s.contains(20));
            assertFalse(s.contains(10));
        }
    }

    @Test
    void shouldReleaseItsLocksAndStartOverWhenAHolderResumesAfterItsLeaseRanOut() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, LockKind.SPIN, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            CompletableFuture<long[]> done = new CompletableFuture<>();
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                EpochOptions fake = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(SHORT_LEASE).withClock(clock::get);
                try (ComputeThread h = c.thread(0); EpochReclaimer hr = new EpochReclaimer(h, h.allocator(), fake);
                     LazyListSet hs = LazyListSet.attach(new LockContext(h, LOCKS), hr, ptr)) {
                    ready.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                    boolean removed = hs.remove(20);
                    done.complete(new long[]{removed ? 1 : 0, hs.lateLocks()});
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "holder@node0");
            holder.setDaemon(true);
            holder.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            // Parked holding the locks of nodes 10 and 20, before the READs that validate them.
            SimFreeze f = ((SimFabric) c.fabric()).freeze(holder, Opcode.COMPARE_AND_SWAP, 2, MAX_FROZEN);
            go.countDown();
            assertTrue(f.awaitFrozen(WAIT));
            assertEquals(Opcode.READ, f.frozenAt());
            clock.addAndGet(SHORT_LEASE.toMillis() * 10); // the holder's lease runs out while it is stalled
            f.release();
            long[] result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(1, result[0], "released its locks, started over in a fresh guard and removed the key");
            assertEquals(0, result[1], "both locks were got while the lease held");
            assertTrue(s.insert(15) && s.remove(10), "nodes 10 and 20's locks were released");
            assertTrue(s.contains(15) && s.contains(30));
            assertFalse(s.contains(10) || s.contains(20));
        }
    }
    @Test
    void shouldReleaseASpinLockGotOnlyAfterTheLeaseRanOutWhenTheCallStartsOver() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, LockKind.SPIN, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            Lock stalled = LockKind.SPIN.open(new LockContext(t, LOCKS), LazyListSet.lockWordOf(blockOf(t, ptr, 10)));
            stalled.lock(); // node 10's holder: the waiter's first attempt fails
            CompletableFuture<long[]> done = new CompletableFuture<>();
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                EpochOptions fake = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(Duration.ofSeconds(10))
                        .withClock(clock::get);
                try (ComputeThread h = c.thread(0); EpochReclaimer hr = new EpochReclaimer(h, h.allocator(), fake);
                     LazyListSet hs = LazyListSet.attach(new LockContext(h, LOCKS), hr, ptr)) {
                    ready.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                    boolean removed = hs.remove(20);
                    done.complete(new long[]{removed ? 1 : 0, hs.lateLocks()});
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "waiter@node0");
            waiter.setDaemon(true);
            waiter.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            // Parked after its first, failed, attempt on node 10's lock, inside the wait.
            SimFreeze f = ((SimFabric) c.fabric()).freeze(waiter, Opcode.COMPARE_AND_SWAP, 1, MAX_FROZEN);
            go.countDown();
            assertTrue(f.awaitFrozen(WAIT));
            clock.addAndGet(Duration.ofSeconds(100).toMillis()); // its lease runs out while it waits
            stalled.unlock(); // and its next attempt gets the lock
            f.release();
            long[] result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(1, result[1], "node 10's lock was got only after the lease ran out");
            assertEquals(1, result[0], "the call released it, started over in a fresh guard and removed the key");
            assertTrue(s.insert(15) && s.remove(10), "node 10's lock is free");
            assertTrue(s.contains(15) && s.contains(30));
            assertFalse(s.contains(10) || s.contains(20));
        }
    }
    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"MCS", "ALOCK"})
    void shouldReleaseAQueueLockGotOnlyAfterTheLeaseRanOutWhenTheCallStartsOver(LockKind kind) throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, kind, SetHistories.HOME)) {
            long ptr = s.ptr();
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            Lock stalled = kind.open(new LockContext(t, LOCKS), LazyListSet.lockWordOf(blockOf(t, ptr, 10)));
            stalled.lock(); // node 10's holder: the waiter queues behind it
            CompletableFuture<long[]> done = new CompletableFuture<>();
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                EpochOptions fake = EpochOptions.defaults().withClockSkew(Duration.ZERO).withLease(Duration.ofSeconds(10))
                        .withClock(clock::get);
                try (ComputeThread h = c.thread(0); EpochReclaimer hr = new EpochReclaimer(h, h.allocator(), fake);
                     LazyListSet hs = LazyListSet.attach(new LockContext(h, LOCKS), hr, ptr)) {
                    ready.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                    boolean removed = hs.remove(20);
                    done.complete(new long[]{removed ? 1 : 0, hs.lateLocks(), hs.leaseCutWaits()});
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "waiter@node0");
            waiter.setDaemon(true);
            waiter.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            go.countDown();
            Thread.sleep(300); // the waiter walks and queues behind the holder
            clock.addAndGet(Duration.ofSeconds(100).toMillis()); // its lease runs out while it waits, too late to renew
            Thread.sleep(300); // and it keeps waiting in the queue with its lease run out
            stalled.unlock(); // the lock is handed to it
            long[] result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(1, result[1], "node 10's lock was got only after the lease ran out");
            assertEquals(0, result[2], "a queue lock's wait is never cut by the lease");
            assertEquals(1, result[0], "the call released it, started over in a fresh guard and removed the key");
            assertTrue(s.insert(15) && s.remove(10), "node 10's lock was released, not left held");
            stalled.lock();
            stalled.unlock();
            assertTrue(s.contains(15) && s.contains(30));
            assertFalse(s.contains(10) || s.contains(20));
        }
    }

    /**
     * A queue lock's waiter that times out leaves the queue: a caller whose calls time out behind a stalled
     * holder of node 20's lock more often than its context has queue nodes ({@link LockOptions#maxHeldLocks()})
     * still inserts and removes other keys meanwhile, and every key once the holder releases. The caller is on
     * node {@code callerNode}: for ALock, node 0 waits in the holder's (remote) cohort for its hand-over, node
     * 1 (the set's home) leads the local cohort and waits for the remote one to yield.
     */
    @ParameterizedTest(name = "{0} caller@{1}")
    @MethodSource("queueKindsAndCallerNodes")
    void shouldKeepEveryKeyUsableWhenQueueLockWaitsTimeOutMoreOftenThanMaxHeldLocks(LockKind kind, int callerNode) {
        LockOptions shortWait = LOCKS.withAcquireTimeout(Duration.ofMillis(200));
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), LONG);
             LazyListSet created = LazyListSet.create(new LockContext(t, LOCKS), r, kind, SetHistories.HOME);
             ComputeThread u = c.thread(callerNode); EpochReclaimer ur = new EpochReclaimer(u, u.allocator(), LONG);
             LazyListSet s = LazyListSet.attach(new LockContext(u, shortWait), ur, created.ptr())) {
            assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            Lock stalled = kind.open(new LockContext(t, LOCKS), LazyListSet.lockWordOf(blockOf(t, s.ptr(), 20)));
            stalled.lock(); // node 20's holder stalls
            int timeouts = shortWait.maxHeldLocks() + 2;
            for (int i = 0; i < timeouts; i++) {
                assertThrows(LockTimeoutException.class, i % 2 == 0 ? () -> s.insert(15) : () -> s.remove(20),
                        "node 20's lock is held (call " + i + ")");
            }
            assertTrue(s.insert(5) && s.remove(5) && s.insert(40) && s.remove(40), "keys away from node 20, meanwhile");
            stalled.unlock(); // the holder resumes and releases
            assertTrue(s.insert(15) && s.remove(20) && s.insert(25) && s.remove(10), "every key once it released");
            assertTrue(s.contains(15) && s.contains(25) && s.contains(30));
            assertFalse(s.contains(10) || s.contains(20));
            stalled.lock();
            stalled.unlock();
        }
    }

    static Stream<Arguments> queueKindsAndCallerNodes() {
        return Stream.of(LockKind.MCS, LockKind.ALOCK).flatMap(k -> Stream.of(Arguments.of(k, 0), Arguments.of(k, 1)));
    }
}
