package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.alock.queue.QueueNode;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue lock's (MCS, ALock) release never waits for its successor to link, shown on the simulator with the
 * successor frozen between its swap of the tail and its link ({@link SimFreeze}); the timeouts themselves are
 * {@link QueueLockTimeoutTest}'s.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QueueLockFrozenSuccessorTest {
    private static final VarHandle WORD = QueueLockTimeoutTest.WORD;
    private static final int HOME = QueueLockTimeoutTest.HOME;
    private static final LockKind[] QUEUE_KINDS = QueueLockTimeoutTest.QUEUE_KINDS;

    static Stream<Arguments> kindsAndAbandoned() {
        return Stream.of(QUEUE_KINDS).flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    /**
     * A release never waits for a successor to link: the successor is frozen between its swap of the tail and
     * its link (simulator only), behind the holder or behind a waiter that timed out ({@code abandoned}). The
     * release returns at once and marks the node it passed on from released; the successor, once it resumes,
     * finds that, acknowledges it and owns the lock; the released node then goes back to its owner's pool. All
     * three threads are in the remote cohort (nodes 0 and 2, the lock homed on node 1).
     */
    @ParameterizedTest(name = "{0} abandoned={1}")
    @MethodSource("kindsAndAbandoned")
    void shouldPassTheLockOnWithoutWaitingWhenTheSuccessorHasNotLinkedYet(LockKind kind, boolean abandoned)
            throws Exception {
        LockOptions one = LockOptions.defaults().withMaxHeldLocks(1);
        try (TestCluster c = LockClusters.start(SimFabric::new, SimOptions.defaults(), 3, 3)) {
            SimFabric fabric = (SimFabric) c.fabric();
            long word = LockClusters.lockWord(c, HOME);
            MemorySegment raw = c.raw(word, LockWord.SIZE);
            AtomicReference<Thread> successor = new AtomicReference<>();
            AtomicReference<SimFreeze> freeze = new AtomicReference<>();
            AtomicLong releasedNode = new AtomicLong();
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch waiterQueued = new CountDownLatch(1);
            CountDownLatch armed = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            CountDownLatch left = new CountDownLatch(1);
            CountDownLatch passed = new CountDownLatch(1);
            CountDownLatch successorHolds = new CountDownLatch(1);
            c.runOnThreads(new int[] {2, 0, 0}, (i, t) -> {
                LockContext ctx = new LockContext(t, one);
                Lock lock = kind.open(ctx, word);
                long myNode = ctx.queueNodes().take();
                ctx.queueNodes().give(myNode);
                SpinBound wait = new SpinBound(Duration.ofSeconds(30));
                if (i == 0) {
                    lock.lock();
                    long tail = (long) WORD.getVolatile(raw, 0L);
                    held.countDown();
                    if (abandoned) {
                        assertTrue(waiterQueued.await(30, TimeUnit.SECONDS));
                        tail = (long) WORD.getVolatile(raw, 0L);
                    }
                    wait.start();
                    while (successor.get() == null) {
                        wait.pause("the successor to start");
                    }
                    SimFreeze f = fabric.freeze(successor.get(), Opcode.COMPARE_AND_SWAP, 2, Duration.ofSeconds(30));
                    freeze.set(f);
                    armed.countDown();
                    assertTrue(f.awaitFrozen(Duration.ofSeconds(30)), "the successor swapped the tail");
                    assertTrue((long) WORD.getVolatile(raw, 0L) != tail, "the tail moved on to the successor");
                    if (abandoned) {
                        leave.countDown();
                        assertTrue(left.await(30, TimeUnit.SECONDS));
                    }
                    lock.unlock(); // the successor is frozen before its link: the release must not wait for it
                    assertFalse(lock.isHeld());
                    releasedNode.set(abandoned ? 0 : myNode);
                    assertEquals(abandoned ? 0 : 1, ctx.queueNodes().deferredCount(),
                            "the holder's node waits for the successor's acknowledgement unless it passed it on");
                    passed.countDown();
                    f.release();
                    if (!abandoned) {
                        assertTrue(successorHolds.await(30, TimeUnit.SECONDS));
                        assertEquals(myNode, ctx.queueNodes().take(), "the acknowledged node is reused");
                        assertEquals(0, ctx.queueNodes().deferredCount());
                    }
                    return;
                }
                if (i == 1) {
                    if (!abandoned) {
                        successor.set(Thread.currentThread());
                        assertTrue(held.await(30, TimeUnit.SECONDS));
                        assertTrue(armed.await(30, TimeUnit.SECONDS));
                        lock.lock();
                        assertEquals(QueueNode.ACKNOWLEDGED, c.raw(releasedNode.get(), QueueNode.SIZE)
                                .get(ValueLayout.JAVA_LONG, QueueNode.NEXT), "the successor acknowledged the release");
                        successorHolds.countDown();
                        lock.unlock();
                        return;
                    }
                    assertTrue(held.await(30, TimeUnit.SECONDS));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    Thread.ofPlatform().daemon().start(() -> {
                        waitForTailChange(raw, myNode);
                        waiterQueued.countDown();
                    });
                    assertThrows(LockTimeoutException.class, () -> lock.lock(now -> leave.getCount() == 0 ? now - 1 : deadline));
                    assertEquals(1, ctx.queueNodes().deferredCount(), "the abandoned node waits for the lock to pass it");
                    left.countDown();
                    assertTrue(successorHolds.await(30, TimeUnit.SECONDS));
                    assertEquals(QueueNode.ACKNOWLEDGED, c.raw(myNode, QueueNode.SIZE).get(ValueLayout.JAVA_LONG, QueueNode.NEXT),
                            "the successor acknowledged the abandoned node's release");
                    assertEquals(myNode, ctx.queueNodes().take(), "the abandoned node is reused");
                    assertEquals(0, ctx.queueNodes().deferredCount());
                    return;
                }
                if (!abandoned) {
                    return;
                }
                successor.set(Thread.currentThread());
                assertTrue(waiterQueued.await(30, TimeUnit.SECONDS));
                assertTrue(armed.await(30, TimeUnit.SECONDS));
                lock.lock();
                successorHolds.countDown();
                lock.unlock();
            });
            assertTrue(passed.getCount() == 0 && successorHolds.getCount() == 0);
            assertFalse(freeze.get().expired(), "released by its resumption, not by its deadline");
            QueueLockTimeoutTest.assertQueuesEmpty(c, word);
        }
    }

    private static void waitForTailChange(MemorySegment raw, long node) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((long) WORD.getVolatile(raw, 0L) != node && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }
}
