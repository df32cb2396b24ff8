package io.remus.bench.engines;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RunBarrier} on host threads and under the virtual-time scheduler: rounds, the action, breaking, the bound. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunBarrierTest {
    private static final int PARTIES = 3;
    private static final int ROUNDS = 20;

    /** Each of 3 threads meets the others 20 times; the action counts rounds and sees every thread arrived. */
    private static void meetRounds() throws InterruptedException {
        AtomicInteger arrivals = new AtomicInteger();
        List<Integer> seen = new ArrayList<>();
        RunBarrier barrier = new RunBarrier(PARTIES, () -> seen.add(arrivals.get()));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < PARTIES; t++) {
            Thread thread = ThreadTime.newThread("party-" + t, () -> {
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        arrivals.incrementAndGet();
                        barrier.await(Duration.ofSeconds(10));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        BenchWorkers.joinAll(threads, Duration.ofSeconds(30), failure, "a barrier");
        List<Integer> expected = new ArrayList<>();
        for (int r = 1; r <= ROUNDS; r++) {
            expected.add(r * PARTIES);
        }
        assertEquals(expected, seen, "the action ran once per round, after every party arrived");
    }

    @Test
    void shouldMeetEveryRoundOnHostThreads() throws InterruptedException {
        meetRounds();
    }

    @Test
    void shouldMeetEveryRoundInVirtualTime() {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), RunBarrierTest::meetRounds);
    }

    @Test
    void shouldTimeOutTypedAndBreakForLaterArrivals() {
        RunBarrier barrier = new RunBarrier(2);
        assertThrows(RemoteTimeoutException.class, () -> barrier.await(Duration.ofMillis(20)));
        RemusException broken = assertThrows(RemusException.class, () -> barrier.await(Duration.ofMillis(20)));
        assertTrue(broken.getMessage().contains("broken"), broken.getMessage());
    }

    @Test
    void shouldReleaseAWaiterWhenBroken() throws InterruptedException {
        RunBarrier barrier = new RunBarrier(2);
        AtomicReference<Throwable> caught = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                barrier.await(Duration.ofSeconds(30));
            } catch (Throwable e) {
                caught.set(e);
            }
        });
        waiter.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() - deadline < 0, "the waiter parks within 10 s");
            Thread.onSpinWait();
        }
        barrier.breakAll();
        waiter.join(Duration.ofSeconds(10));
        assertInstanceOf(RemusException.class, caught.get());
    }

    @Test
    void shouldRefuseNoPartiesNamingTheCount() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> new RunBarrier(0));
        assertTrue(e.getMessage().contains("got 0"), e.getMessage());
    }
}
