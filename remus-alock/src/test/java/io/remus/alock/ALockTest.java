package io.remus.alock;

import io.remus.alock.asymmetric.ALock;
import io.remus.alock.asymmetric.ALockWord;
import io.remus.alock.kind.LockKind;
import io.remus.alock.queue.QueueNode;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALock's {@link LockContractTest} (its three kinds), and its specifics: its cohorts and the budgets' starvation
 * bound (the hazard it avoids: {@link MixedAtomicsHazardTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALockTest extends LockContractTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    @Override
    protected Stream<LockKind> kinds() {
        return Stream.of(LockKind.ALOCK, LockKind.ALOCK_REMOTE_ONLY, LockKind.ALOCK_PARKING);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldTakeTheCpuPathOnlyOnTheHomeNodeAndNeverInRemoteOnlyMode(Function<SimOptions, Fabric> make) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 2);
             ComputeThread home = c.thread(1); ComputeThread away = c.thread(0)) {
            long word = LockClusters.lockWord(c, 1);
            assertTrue(((ALock) LockKind.ALOCK.open(new LockContext(home, LockOptions.defaults()), word)).isLocal());
            assertFalse(((ALock) LockKind.ALOCK.open(new LockContext(away, LockOptions.defaults()), word)).isLocal());
            assertFalse(((ALock) LockKind.ALOCK_REMOTE_ONLY.open(new LockContext(home, LockOptions.defaults()), word)).isLocal());
            Lock local = LockKind.ALOCK.open(new LockContext(home, LockOptions.defaults()), word);
            local.lock();
            MemorySegment raw = c.raw(word, 64);
            assertEquals(0L, (long) WORD.getVolatile(raw, ALockWord.R_TAIL), "a local holder leaves the remote tail alone");
            assertTrue((long) WORD.getVolatile(raw, ALockWord.L_TAIL) != 0);
            local.unlock();
            assertEquals(0L, (long) WORD.getVolatile(raw, ALockWord.L_TAIL));
        }
    }

    /**
     * One thread of cohort {@code waiterNode} enqueues while two threads of the other cohort keep
     * its queue non-empty, each holding the lock until the other is linked behind it (at most
     * {@value #HOG_ENTRIES} entries in all). The hogs' cohort may then enter at most twice its
     * budget (the budget running when the waiter enqueued, and one Peterson bypass) before the
     * waiter; without budgets they would enter {@value #HOG_ENTRIES} times.
     */
    private static long bypassesOfAQueuedWaiter(Function<SimOptions, Fabric> make, int waiterNode, int hogNode, long budget)
            throws Exception {
        LockOptions options = LockOptions.defaults().withBudgets(budget, budget).withMaxHeldLocks(1)
                .withAcquireTimeout(Duration.ofSeconds(10));
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 3)) {
            long word = LockClusters.lockWord(c, 1);
            long waiterTail = waiterNode == 1 ? ALockWord.L_TAIL : ALockWord.R_TAIL;
            MemorySegment raw = c.raw(word, 64);
            AtomicBoolean hogHolds = new AtomicBoolean();
            AtomicBoolean waiterQueued = new AtomicBoolean();
            AtomicBoolean waiterDone = new AtomicBoolean();
            AtomicLong hogEntries = new AtomicLong();
            AtomicLong bypasses = new AtomicLong(-1);
            c.runOnThreads(new int[] {hogNode, hogNode, waiterNode}, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = LockKind.ALOCK.open(ctx, word);
                SpinBound wait = new SpinBound(Duration.ofSeconds(10));
                if (i == 2) {
                    wait.start();
                    while (!hogHolds.get()) {
                        wait.pause("a hog to hold the lock");
                    }
                    lock.lock();
                    bypasses.set(hogEntries.get());
                    waiterDone.set(true);
                    lock.unlock();
                    return;
                }
                // The queue node the next lock() takes: the pool hands out the node given back last.
                long myNode = nextQueueNode(ctx);
                if (i == 0) {
                    lock.lock();
                    hogHolds.set(true);
                    wait.start();
                    while ((long) WORD.getVolatile(raw, waiterTail) == 0) {
                        wait.pause("the waiter to enqueue");
                    }
                    waiterQueued.set(true);
                    wait.start();
                    while (successorOf(ctx, myNode) == 0) {
                        wait.pause("the other hog to link behind the first holder");
                    }
                    lock.unlock();
                } else {
                    wait.start();
                    while (!waiterQueued.get()) {
                        wait.pause("the waiter to enqueue");
                    }
                }
                while (!waiterDone.get() && hogEntries.get() < HOG_ENTRIES) {
                    myNode = nextQueueNode(ctx);
                    lock.lock();
                    if (!waiterDone.get()) {
                        hogEntries.incrementAndGet();
                    }
                    wait.start();
                    while (!waiterDone.get() && hogEntries.get() < HOG_ENTRIES && successorOf(ctx, myNode) == 0) {
                        wait.pause("the other hog to link behind the holder");
                    }
                    lock.unlock();
                }
            });
            return bypasses.get();
        }
    }

    /**
     * The queue node the context's next acquire takes: a release whose successor had not linked yet leaves its
     * node set aside until the successor acknowledges, so the next acquire may take another node.
     */
    private static long nextQueueNode(LockContext ctx) {
        long node = ctx.queueNodes().take();
        ctx.queueNodes().give(node);
        return node;
    }

    /**
     * The next word of a queue node of this thread: 0 until a successor linked behind it. A hog waits for the
     * link, not only for the tail to move, so that its release hands the lock within its cohort (a release
     * that finds no link yet leaves the successor to arbitrate again).
     */
    private static long successorOf(LockContext ctx, long node) {
        return (long) WORD.getVolatile(ctx.queueNodes().view(node), QueueNode.NEXT);
    }

    private static final int HOG_ENTRIES = 100;

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLetAQueuedRemoteThreadInWithinTwiceTheLocalBudgetWhenLocalThreadsHogTheLock(Function<SimOptions, Fabric> make)
            throws Exception {
        long bypasses = bypassesOfAQueuedWaiter(make, 0, 1, 3);
        assertTrue(bypasses >= 0 && bypasses <= 2 * 3, "local entries while a remote waiter was queued: " + bypasses);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLetAQueuedLocalThreadInWithinTwiceTheRemoteBudgetWhenRemoteThreadsHogTheLock(Function<SimOptions, Fabric> make)
            throws Exception {
        long bypasses = bypassesOfAQueuedWaiter(make, 1, 0, 2);
        assertTrue(bypasses >= 0 && bypasses <= 2 * 2, "remote entries while a local waiter was queued: " + bypasses);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStarveTheWaiterWhenTheBudgetIsEffectivelyUnbounded(Function<SimOptions, Fabric> make) throws Exception {
        long bypasses = bypassesOfAQueuedWaiter(make, 0, 1, Long.MAX_VALUE);
        assertTrue(bypasses >= HOG_ENTRIES, "the bounded-bypass test must be able to fail: without a budget the hogs'"
                + " cohort keeps the lock until the hogs stop, but it entered only " + bypasses + " times");
    }
}
