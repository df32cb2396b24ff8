package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SimFreeze}: which work request a frozen thread stops before, and what ends a freeze. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimFreezeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 2, b -> { });
    }

    private static long word(TestCluster c, long p) {
        return c.raw(p, 8).get(ValueLayout.JAVA_LONG, 0);
    }

    /**
     * A worker that opens a compute thread on node 0, says so, waits for {@code go}, then writes 1, 2
     * and 3 to {@code p} (three WRITEs) and adds 10 to it (one fetch-and-add).
     */
    private static final class Worker {
        final CountDownLatch ready = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final Thread thread;

        Worker(TestCluster c, long p) {
            thread = new Thread(() -> {
                try (ComputeThread t = c.thread(0)) {
                    ready.countDown();
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to go");
                    }
                    t.write(p, 1);
                    t.write(p, 2);
                    t.write(p, 3);
                    done.complete(t.fetchAndAdd(p, 10));
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            }, "frozen-worker");
            thread.setDaemon(true);
            thread.start();
        }

        void awaitReady() throws InterruptedException {
            assertTrue(ready.await(30, TimeUnit.SECONDS), "the worker opened its compute thread");
        }
    }

    @Test
    void shouldParkTheThreadBeforeItsChosenOperationUntilReleased() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, 2, WAIT);
            assertNull(freeze.frozenAt(), "not parked before it ran");
            w.go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the worker reached its third operation");
            assertTrue(freeze.isFrozen());
            assertEquals(Opcode.WRITE, freeze.frozenAt());
            assertEquals(2, word(c, p), "the first two WRITEs landed, the third did not");
            try (ComputeThread other = c.thread(1)) {
                long q = c.block(1, 8);
                for (int i = 1; i <= 100; i++) {
                    other.write(q, i);
                    assertEquals(i, other.read(q), "another thread's operations go on");
                }
            }
            assertFalse(w.done.isDone(), "the frozen thread stays frozen");
            assertEquals(2, word(c, p), "and its third WRITE has still not landed");
            freeze.release();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS), "released, it finished: the add saw the third WRITE");
            assertTrue(freeze.awaitResumed(WAIT));
            assertFalse(freeze.isFrozen());
            assertFalse(freeze.expired(), "released, not timed out");
            assertEquals(13, word(c, p));
        }
    }

    @Test
    void shouldParkBeforeAnAtomicAndCountOnlyOperationsAppliedAfterArming() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, 3, WAIT);
            w.go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT));
            assertEquals(Opcode.FETCH_AND_ADD, freeze.frozenAt());
            assertEquals(3, word(c, p), "every WRITE landed, the add did not");
            freeze.release();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS));
            assertEquals(13, word(c, p));
        }
    }

    @Test
    void shouldCountOnlyTheChosenOperationAndParkBeforeWhateverComesNext() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, Opcode.WRITE, 3, WAIT);
            assertEquals(Opcode.WRITE, freeze.counted());
            w.go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "three WRITEs went through, then the next request parked");
            assertEquals(Opcode.FETCH_AND_ADD, freeze.frozenAt());
            assertEquals(3, word(c, p));
            freeze.release();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS));
        }
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, Opcode.FETCH_AND_ADD, 1, Duration.ofMillis(300));
            w.go.countDown();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS), "only one add, so the thread never parked");
            assertFalse(freeze.awaitFrozen(Duration.ofMillis(1)));
            freeze.release();
            assertThrows(NullPointerException.class, () -> sim.freeze(w.thread, null, 0, WAIT));
        }
    }

    @Test
    void shouldLetTheThreadGoWhenTheFreezeOutlivesItsDeadline() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, 0, Duration.ofMillis(200));
            w.go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT));
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS), "nobody released it, yet it finished");
            assertTrue(freeze.awaitResumed(WAIT));
            assertTrue(freeze.expired(), "it went on because the deadline passed");
            SimFreeze next = sim.freeze(w.thread, 0, WAIT);
            next.release();
        }
    }

    @Test
    void shouldNeverParkWhenReleasedBeforeTheThreadGotThere() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(w.thread, 1, WAIT);
            freeze.release();
            w.go.countDown();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS));
            assertFalse(freeze.awaitFrozen(Duration.ofMillis(1)), "disarmed, it never parked");
            assertNull(freeze.frozenAt());
            sim.freeze(w.thread, 0, WAIT).release();
        }
    }

    @Test
    void shouldNotStopOtherThreads() throws Exception {
        try (TestCluster c = cluster()) {
            SimFabric sim = (SimFabric) c.fabric();
            long p = c.block(1, 8);
            Worker w = new Worker(c, p);
            w.awaitReady();
            SimFreeze freeze = sim.freeze(Thread.currentThread(), 0, WAIT);
            w.go.countDown();
            assertEquals(3, w.done.get(30, TimeUnit.SECONDS), "a thread other than the frozen one runs through");
            assertFalse(freeze.isFrozen());
            freeze.release();
        }
    }

    @Test
    void shouldRefuseBadArgumentsAndASecondFreeze() {
        try (SimFabric sim = new SimFabric()) {
            Thread me = Thread.currentThread();
            assertThrows(BadArgumentException.class, () -> sim.freeze(me, -1, WAIT));
            assertThrows(BadArgumentException.class, () -> sim.freeze(me, 0, Duration.ZERO));
            assertThrows(BadArgumentException.class, () -> sim.freeze(me, 0, Duration.ofSeconds(-1)));
            NullPointerException npe = assertThrows(NullPointerException.class, () -> sim.freeze(null, 0, WAIT));
            assertEquals("thread", npe.getMessage());
            AtomicReference<SimFreeze> first = new AtomicReference<>(sim.freeze(me, 0, WAIT));
            assertThrows(BadArgumentException.class, () -> sim.freeze(me, 0, WAIT));
            first.get().release();
            sim.freeze(me, 0, WAIT).release();
        }
    }
}
