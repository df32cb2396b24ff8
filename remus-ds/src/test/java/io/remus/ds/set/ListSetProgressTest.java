package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The progress guarantees, shown with a thread frozen in the middle of a remove ({@link SimFabric#freeze}):
 * around a {@link LockFreeListSet} remove frozen between its mark and its unlink, the other threads' inserts,
 * removes and contains all complete (they unlink the marked node for it); around a {@link LazyListSet} remove
 * frozen holding its two locks, contains still completes (wait-free) while an insert that needs one of those
 * locks waits and fails with {@link LockTimeoutException} at the lock context's deadline. Released, the frozen
 * remove returns true. The same holds around a {@link LockFreeSkipListSet} remove frozen after its marks, before
 * the find that unlinks its node at every level.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListSetProgressTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(50);

    /** A thread on node 0 that removes {@code key} through the set its setup attached, once told to go. */
    private static final class FrozenRemove {
        private final CountDownLatch ready = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private final CompletableFuture<Boolean> done = new CompletableFuture<>();
        private final Thread thread;

        FrozenRemove(TestCluster c, Function<ComputeThread, RemoteSet> attach, long key) {
            thread = new Thread(() -> {
                try (ComputeThread t = c.thread(0); RemoteSet s = attach.apply(t)) {
                    ready.countDown();
                    if (!go.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to go");
                    }
                    done.complete(s.remove(key));
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "frozen-remove@node0");
            thread.setDaemon(true);
            thread.start();
        }

        /** Freezes the remove before its next work request after {@code skip} compare-and-swaps, and waits until it is parked. */
        SimFreeze freezeAfterCompareAndSwaps(TestCluster c, int skip, Opcode expected) throws InterruptedException {
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            SimFreeze f = ((SimFabric) c.fabric()).freeze(thread, Opcode.COMPARE_AND_SWAP, skip, MAX_FROZEN);
            go.countDown();
            assertTrue(f.awaitFrozen(WAIT), "the remove reached the work request it is frozen before");
            assertEquals(expected, f.frozenAt());
            return f;
        }

        boolean releaseAndAwait(SimFreeze f) throws Exception {
            assertTrue(f.isFrozen() && !done.isDone(), "still frozen while the others ran");
            f.release();
            boolean result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertFalse(f.expired(), "released by the test");
            return result;
        }
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    @Test
    void shouldLetEveryOtherCallCompleteWhenALockFreeRemoveIsFrozenBetweenMarkAndUnlink() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t);
                 LockFreeListSet s = LockFreeListSet.create(t, r, SetHistories.HOME)) {
                ptr = s.ptr();
                assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            }
            FrozenRemove frozen = new FrozenRemove(c, t -> LockFreeListSet.attach(t, new NeverReclaimer(t), ptr), 20);
            SimFreeze f = frozen.freezeAfterCompareAndSwaps(c, 1, Opcode.COMPARE_AND_SWAP);
            c.runOnThreads(new int[]{1, 2}, (index, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t); LockFreeListSet s = LockFreeListSet.attach(t, r, ptr)) {
                    assertFalse(s.contains(20), "marked: removed at its mark");
                    if (index == 0) {
                        assertTrue(s.insert(25), "an insert next to the marked node unlinks it and goes on");
                        assertTrue(s.remove(10));
                    } else {
                        assertTrue(s.contains(30));
                        assertFalse(s.remove(20), "already removed by the frozen thread");
                    }
                }
            });
            assertTrue(frozen.releaseAndAwait(f), "the frozen remove took effect at its mark");
            try (ComputeThread t = c.thread(1); NeverReclaimer r = new NeverReclaimer(t); LockFreeListSet s = LockFreeListSet.attach(t, r, ptr)) {
                assertFalse(s.contains(10) || s.contains(20));
                assertTrue(s.contains(25) && s.contains(30));
            }
        }
    }

    @Test
    void shouldLetEveryOtherCallCompleteWhenASkipListRemoveIsFrozenBetweenItsMarksAndItsUnlinkingFind() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            int height;
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t);
                 LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, SetHistories.HOME)) {
                ptr = s.ptr();
                assertTrue(s.insert(10) && s.insert(30) && s.insert(20));
                height = s.lastHeight();
            }
            FrozenRemove frozen = new FrozenRemove(c, t -> LockFreeSkipListSet.attach(t, new NeverReclaimer(t), ptr), 20);
            SimFreeze f = frozen.freezeAfterCompareAndSwaps(c, height, Opcode.READ);
            c.runOnThreads(new int[]{1, 2}, (index, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t); LockFreeSkipListSet s = LockFreeSkipListSet.attach(t, r, ptr)) {
                    assertFalse(s.contains(20), "marked at every level: removed at its level-0 mark");
                    if (index == 0) {
                        assertTrue(s.insert(25), "an insert next to the marked node unlinks it and goes on");
                        assertTrue(s.remove(10));
                    } else {
                        assertTrue(s.contains(30));
                        assertFalse(s.remove(20), "already removed by the frozen thread");
                    }
                }
            });
            assertTrue(frozen.releaseAndAwait(f), "the frozen remove took effect at its level-0 mark");
            try (ComputeThread t = c.thread(1); NeverReclaimer r = new NeverReclaimer(t);
                 LockFreeSkipListSet s = LockFreeSkipListSet.attach(t, r, ptr)) {
                assertFalse(s.contains(10) || s.contains(20));
                assertTrue(s.contains(25) && s.contains(30));
                assertTrue(s.insert(20), "the key can come back");
            }
        }
    }

    @Test
    void shouldAnswerContainsButTimeOutAnInsertWhenALazyRemoveIsFrozenHoldingItsLocks() throws Exception {
        LockOptions shortWait = SetMaker.LOCKS.withAcquireTimeout(Duration.ofMillis(300));
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t);
                 LazyListSet s = LazyListSet.create(new LockContext(t, shortWait), r, LockKind.SPIN, SetHistories.HOME)) {
                ptr = s.ptr();
                assertTrue(s.insert(10) && s.insert(20) && s.insert(30));
            }
            FrozenRemove frozen = new FrozenRemove(c,
                    t -> LazyListSet.attach(new LockContext(t, shortWait), new NeverReclaimer(t), ptr), 20);
            SimFreeze f = frozen.freezeAfterCompareAndSwaps(c, 2, Opcode.READ);
            c.runOnThreads(new int[]{1, 2}, (index, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t);
                     LazyListSet s = LazyListSet.attach(new LockContext(t, shortWait), r, ptr)) {
                    if (index == 0) {
                        assertTrue(s.contains(20) && s.contains(10) && s.contains(30), "contains takes no lock");
                    } else {
                        assertThrows(LockTimeoutException.class, () -> s.insert(15), "node 10's lock is held by the frozen remove");
                        assertTrue(s.insert(35), "nodes 30 and the tail are not locked");
                    }
                }
            });
            assertTrue(frozen.releaseAndAwait(f));
            try (ComputeThread t = c.thread(1); NeverReclaimer r = new NeverReclaimer(t);
                 LazyListSet s = LazyListSet.attach(new LockContext(t, shortWait), r, ptr)) {
                assertTrue(s.insert(15), "the locks were released");
                assertFalse(s.contains(20));
                assertTrue(s.contains(10) && s.contains(15) && s.contains(30) && s.contains(35));
            }
        }
    }
}
