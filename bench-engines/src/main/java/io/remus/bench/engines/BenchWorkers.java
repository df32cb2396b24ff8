package io.remus.bench.engines;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The start and the end of a benchmark run that the engines share ({@code io.remus.bench.object},
 * {@code io.remus.bench.structure}, {@code io.remus.bench.reclaim}): waiting until the run's workers are ready within
 * a bound, joining the run's threads after they were told to stop, within one bound for all of them, and handing on
 * the first failure a worker recorded. Not exported.
 */
public final class BenchWorkers {
    private BenchWorkers() {
    }

    /**
     * Waits until {@code ready} counts {@code workers}, checking it between parks of at most {@code checkNanos} (a
     * worker need not unpark the caller). The bound is the calling thread's {@link ThreadTime} clock: virtual time on
     * the simulator's virtual-time scheduler.
     *
     * @param ready      how many workers are ready
     * @param workers    how many must be
     * @param bound      how long they may take
     * @param failure    the first failure a worker recorded, or null in it
     * @param checkNanos the longest park between two checks
     * @throws RemoteTimeoutException "not ready within" the bound, when a worker recorded a failure or the bound passed
     *                                first
     */
    public static void awaitReady(AtomicInteger ready, int workers, Duration bound, AtomicReference<Throwable> failure,
                                  long checkNanos) {
        long readyBy = ThreadTime.nanoTime() + bound.toNanos();
        while (ready.get() < workers) {
            if (failure.get() != null || ThreadTime.nanoTime() - readyBy > 0) {
                throw new RemoteTimeoutException("not ready within " + bound);
            }
            ThreadTime.parkNanos(ready, checkNanos);
        }
    }

    /**
     * Joins every thread within {@code bound} in all, then throws the first failure a worker recorded. The
     * bound is the calling thread's {@link ThreadTime} clock: virtual time on the simulator's virtual-time scheduler.
     *
     * @param threads the run's threads, already told to stop
     * @param bound   how long all of them together may take to stop
     * @param failure the first failure a worker recorded, or null in it
     * @param what    the benchmark, for the message ("an object benchmark")
     * @throws RemoteTimeoutException when a thread is still running once the bound has passed (naming it)
     * @throws RemusException         when a worker failed, with that failure as its cause
     * @throws InterruptedException   when the calling thread is interrupted while it waits
     */
    public static void joinAll(List<Thread> threads, Duration bound, AtomicReference<Throwable> failure, String what)
            throws InterruptedException {
        long deadline = ThreadTime.nanoTime() + bound.toNanos();
        for (Thread t : threads) {
            if (!ThreadTime.join(t, Math.max(1, deadline - ThreadTime.nanoTime()))) {
                throw new RemoteTimeoutException(t.getName() + " did not stop within " + bound
                        + (failure.get() != null ? " after " + failure.get() : ""));
            }
        }
        if (failure.get() != null) {
            throw new RemusException(what + " worker failed: " + failure.get(), failure.get());
        }
    }
}
