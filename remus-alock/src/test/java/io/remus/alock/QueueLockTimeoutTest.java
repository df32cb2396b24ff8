package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue lock's (MCS, ALock) waiter that times out leaves the queue: its queue node comes back to its pool once
 * the lock has passed it, the handle and the lock word stay usable, a holder's release hands the lock past the
 * abandoned node to the waiter behind it, and waiters that give up anywhere in the queue never break mutual
 * exclusion. The lock is homed on node 1; node 1's ALock threads are its local cohort, node 0's and 2's remote.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QueueLockTimeoutTest {
    static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    static final int HOME = 1;
    static final LockKind[] QUEUE_KINDS = {LockKind.MCS, LockKind.ALOCK, LockKind.ALOCK_REMOTE_ONLY,
            LockKind.ALOCK_PARKING};
    /** The waiter's bound; it times out more often than it has queue nodes. */
    private static final LockOptions QUICK = LockOptions.defaults().withAcquireTimeout(Duration.ofMillis(100))
            .withMaxHeldLocks(2);
    private static final int TIMEOUTS = 5;

    static Stream<Arguments> fabricsKindsAndNodes() {
        return fabricsKindsAndNodes(Fabrics.all());
    }

    static Stream<Arguments> fabricsKindsAndNodes(Stream<Named<Function<SimOptions, Fabric>>> fabrics) {
        return fabrics.flatMap(f -> Stream.of(QUEUE_KINDS).flatMap(k -> Stream.of(
                Arguments.of(f, k, 0, 2), Arguments.of(f, k, 0, HOME), Arguments.of(f, k, HOME, 0),
                Arguments.of(f, k, HOME, HOME))));
    }

    static Stream<Arguments> fabricsAndKinds() {
        return fabricsAndKinds(Fabrics.all());
    }

    static Stream<Arguments> fabricsAndKinds(Stream<Named<Function<SimOptions, Fabric>>> fabrics) {
        return fabrics.flatMap(f -> Stream.of(QUEUE_KINDS).map(k -> Arguments.of(f, k)));
    }

    /** Both tails of the word (MCS uses the first only) are empty: the queue is empty. */
    static void assertQueuesEmpty(TestCluster c, long word) {
        MemorySegment raw = c.raw(word, LockWord.SIZE);
        assertEquals(0L, (long) WORD.getVolatile(raw, 0L), "word 0 (a tail) is empty again");
        assertEquals(0L, (long) WORD.getVolatile(raw, 8L), "word 1 (ALock's local tail) is empty again");
    }

    /**
     * A holder on {@code holderNode} keeps the lock while a waiter on {@code waiterNode} times out on it
     * {@value #TIMEOUTS} times, more than its {@code maxHeldLocks} of 2, through one handle and through fresh
     * ones; meanwhile the waiter still takes another lock. Once the holder releases, the waiter takes the lock
     * through the handle that timed out, and both locks at once (its whole allowance), round after round.
     */
    @ParameterizedTest(name = "{0} {1} waiter@{2} holder@{3}")
    @MethodSource("fabricsKindsAndNodes")
    void shouldKeepTheHandleAndItsQueueNodesUsableWhenWaitsTimeOutMoreOftenThanMaxHeldLocks(
            Function<SimOptions, Fabric> make, LockKind kind, int waiterNode, int holderNode) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 3, 2)) {
            long word = LockClusters.lockWord(c, HOME);
            long other = LockClusters.lockWord(c, HOME);
            long third = LockClusters.lockWord(c, 0);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch timedOut = new CountDownLatch(1);
            CountDownLatch released = new CountDownLatch(1);
            c.runOnThreads(new int[] {holderNode, waiterNode}, (i, t) -> {
                if (i == 0) {
                    Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
                    lock.lock();
                    held.countDown();
                    assertTrue(timedOut.await(30, TimeUnit.SECONDS));
                    lock.unlock();
                    released.countDown();
                    return;
                }
                LockContext ctx = new LockContext(t, QUICK);
                Lock lock = kind.open(ctx, word);
                Lock second = kind.open(ctx, other);
                try {
                    assertTrue(held.await(30, TimeUnit.SECONDS));
                    for (int r = 0; r < TIMEOUTS; r++) {
                        Lock attempt = r % 2 == 0 ? lock : kind.open(ctx, word);
                        assertThrows(LockTimeoutException.class, attempt::lock, "attempt " + r);
                        assertFalse(attempt.isHeld());
                    }
                    second.lock();
                    assertTrue(second.isHeld(), "another lock while the timed-out nodes wait for the holder");
                    second.unlock();
                } finally {
                    timedOut.countDown();
                }
                assertTrue(released.await(30, TimeUnit.SECONDS));
                for (int r = 0; r < 3; r++) {
                    lock.lock();
                    second.lock();
                    assertTrue(lock.isHeld() && second.isHeld());
                    assertThrows(LockUsageException.class, () -> kind.open(ctx, third).lock(),
                            "both of its maxHeldLocks are held");
                    second.unlock();
                    lock.unlock();
                }
            });
            assertQueuesEmpty(c, word);
            assertQueuesEmpty(c, other);
        }
    }

    /**
     * Three threads queue in turn: a holder, a first waiter that times out while queued (behind the holder, in
     * its cohort or leading the other), and a second waiter behind the first. The holder's release passes the
     * abandoned node and hands the lock to the second waiter; the first then takes the lock again.
     */
    @ParameterizedTest(name = "{0} {1} waiters@{2} holder@{3}")
    @MethodSource("fabricsKindsAndNodes")
    void shouldHandTheLockToTheWaiterBehindWhenTheWaiterBeforeItTimedOut(
            Function<SimOptions, Fabric> make, LockKind kind, int waiterNode, int holderNode) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 3, 3)) {
            long word = LockClusters.lockWord(c, HOME);
            MemorySegment raw = c.raw(word, LockWord.SIZE);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch firstQueued = new CountDownLatch(1);
            CountDownLatch secondQueued = new CountDownLatch(1);
            CountDownLatch firstTimedOut = new CountDownLatch(1);
            AtomicLong order = new AtomicLong();
            AtomicLongArray entered = new AtomicLongArray(3);
            c.runOnThreads(new int[] {holderNode, waiterNode, waiterNode}, (i, t) -> {
                SpinBound wait = new SpinBound(Duration.ofSeconds(30));
                if (i == 0) {
                    Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
                    lock.lock();
                    long before = (long) WORD.getVolatile(raw, 0L) ^ (long) WORD.getVolatile(raw, 8L);
                    held.countDown();
                    awaitTailChange(raw, before, wait, "the first waiter to queue");
                    long after = (long) WORD.getVolatile(raw, 0L) ^ (long) WORD.getVolatile(raw, 8L);
                    firstQueued.countDown();
                    awaitTailChange(raw, after, wait, "the second waiter to queue");
                    secondQueued.countDown();
                    assertTrue(firstTimedOut.await(30, TimeUnit.SECONDS));
                    entered.set(0, order.incrementAndGet());
                    lock.unlock();
                    return;
                }
                if (i == 1) {
                    Lock lock = kind.open(new LockContext(t, LockOptions.defaults().withMaxHeldLocks(1)), word);
                    assertTrue(held.await(30, TimeUnit.SECONDS));
                    try {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        assertThrows(LockTimeoutException.class, () -> lock.lock(now -> secondQueued.getCount() == 0
                                ? now - 1 : deadline));
                    } finally {
                        firstTimedOut.countDown();
                    }
                    wait.start();
                    while (entered.get(2) == 0) {
                        wait.pause("the second waiter to enter");
                    }
                    lock.lock();
                    entered.set(1, order.incrementAndGet());
                    lock.unlock();
                    return;
                }
                Lock lock = kind.open(new LockContext(t, LockOptions.defaults().withMaxHeldLocks(1)), word);
                assertTrue(firstQueued.await(30, TimeUnit.SECONDS));
                lock.lock();
                entered.set(2, order.incrementAndGet());
                lock.unlock();
            });
            assertEquals(1, entered.get(0), "the holder let go first");
            assertEquals(2, entered.get(2), "the waiter behind the abandoned node got the lock next");
            assertEquals(3, entered.get(1), "the waiter that timed out took the lock again afterwards");
            assertQueuesEmpty(c, word);
        }
    }

    private static void awaitTailChange(MemorySegment raw, long tails, SpinBound wait, String what) {
        wait.start();
        while (((long) WORD.getVolatile(raw, 0L) ^ (long) WORD.getVolatile(raw, 8L)) == tails) {
            wait.pause(what);
        }
    }

    /**
     * Local and remote threads contend, each acquire with a deadline from nothing to a fraction of a millisecond,
     * so that waiters give up at the head of the queue, in its middle, while joining it and while their cohort's
     * leader arbitrates; every acquire that succeeds runs a checked critical section. No overlap, no lost
     * increment, some waits abandoned, and every thread takes the lock again at the end with its queue nodes.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    void shouldNeverOverlapWhenWaitersAbandonAnywhereInTheQueue(Function<SimOptions, Fabric> make, LockKind kind)
            throws Exception {
        int rounds = 150;
        int[] nodes = {HOME, HOME, 0, 2, 2, 0};
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, 2)) {
            long word = LockClusters.lockWord(c, HOME);
            CheckedCriticalSection cs = new CheckedCriticalSection(c.block(2, 8 * (CheckedCriticalSection.STAMPS + 1)));
            LockOptions options = LockOptions.defaults().withBudgets(3, 2).withMaxHeldLocks(1);
            AtomicLong timeouts = new AtomicLong();
            c.runOnThreads(nodes, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = kind.open(ctx, word);
                SplittableRandom random = new SplittableRandom(i);
                for (int r = 0; r < rounds; r++) {
                    long patience = r % 3 == 0 ? 0 : random.nextLong(TimeUnit.MICROSECONDS.toNanos(400));
                    try {
                        lock.lock(System.nanoTime() + patience);
                    } catch (LockTimeoutException e) {
                        timeouts.incrementAndGet();
                        assertFalse(lock.isHeld());
                        continue;
                    }
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
                lock.lock();
                cs.run(t, ctx.ownerId());
                lock.unlock();
            });
            try (ComputeThread t = c.thread(0)) {
                assertEquals(0, cs.overlaps(), "threads overlapped in the critical section");
                assertEquals(cs.entries(), cs.counter(t), "an increment inside the lock was lost");
            }
            assertTrue(timeouts.get() > 0, "some waits were abandoned");
            assertQueuesEmpty(c, word);
        }
    }
}
