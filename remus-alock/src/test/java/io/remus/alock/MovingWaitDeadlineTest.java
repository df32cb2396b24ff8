package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Lock#lock(WaitDeadline)}: a wait whose caller keeps pushing its deadline back outlasts every single
 * answer and gets the lock when the holder releases it; a deadline that stops moving ends the wait there; each
 * kind asks for the deadline while it waits, from the waiting thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MovingWaitDeadlineTest {
    private static final long STEP = TimeUnit.MILLISECONDS.toNanos(40);
    private static final long HOLD_MILLIS = 300;

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void shouldGetTheLockAfterEveryAnswerWouldHaveRunOutWhenTheCallerKeepsMovingTheDeadline(LockKind kind) throws Exception {
        LockOptions options = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(10));
        try (TestCluster c = LockClusters.start(SimFabric::new, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            CountDownLatch held = new CountDownLatch(1);
            AtomicLong asked = new AtomicLong();
            AtomicLong waitedNanos = new AtomicLong();
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, options), word);
                if (i == 0) {
                    lock.lock();
                    held.countDown();
                    // Hold from the waiter's first question on, and until it asked again: the waiter may start
                    // late on a loaded host, and the assertions are about a wait that overlaps the hold.
                    awaitAsked(asked, 1);
                    Thread.sleep(HOLD_MILLIS);
                    awaitAsked(asked, 2);
                    lock.unlock();
                } else {
                    assertTrue(held.await(10, TimeUnit.SECONDS));
                    Thread waiter = Thread.currentThread();
                    long start = System.nanoTime();
                    lock.lock(now -> {
                        assertEquals(waiter, Thread.currentThread(), "asked from the waiting thread");
                        asked.incrementAndGet();
                        return now + STEP;
                    });
                    waitedNanos.set(System.nanoTime() - start);
                    assertTrue(lock.isHeld());
                    lock.unlock();
                }
            });
            assertTrue(waitedNanos.get() > 2 * STEP, "the wait outlasted the first answer: " + waitedNanos.get() + " ns");
            assertTrue(asked.get() > 1, "asked again while waiting: " + asked.get());
        }
    }

    private static void awaitAsked(AtomicLong asked, long times) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (asked.get() < times) {
            assertTrue(System.nanoTime() - deadline < 0, "the waiter asked for its deadline " + times + " time(s) within 10 s");
            Thread.sleep(1);
        }
    }

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void shouldTimeOutAtTheLastAnswerWhenTheDeadlineStopsMoving(LockKind kind) throws Exception {
        LockOptions options = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(10));
        try (TestCluster c = LockClusters.start(SimFabric::new, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, options), word);
                if (i == 0) {
                    lock.lock();
                    held.countDown();
                    assertTrue(done.await(20, TimeUnit.SECONDS));
                    lock.unlock();
                } else {
                    try {
                        assertTrue(held.await(10, TimeUnit.SECONDS));
                        long fixed = System.nanoTime() + STEP;
                        assertThrows(LockTimeoutException.class, () -> lock.lock(now -> fixed));
                        assertTrue(System.nanoTime() - fixed >= 0, "not before the deadline");
                        assertFalse(lock.isHeld());
                    } finally {
                        done.countDown();
                    }
                }
            });
        }
    }

    @Test
    void shouldRefuseANullDeadlineNamingIt() {
        SpinBound spin = new SpinBound(Duration.ofSeconds(1));
        NullPointerException e = assertThrows(NullPointerException.class, () -> spin.cap((WaitDeadline) null));
        assertEquals("deadline", e.getMessage());
    }
}
