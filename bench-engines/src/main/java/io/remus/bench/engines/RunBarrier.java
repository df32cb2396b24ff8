package io.remus.bench.engines;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A cyclic barrier of a benchmark run's threads in one JVM that waits only through {@link ThreadTime}, so that
 * the same run works on host threads and on the simulator's virtual-time scheduler (where
 * {@link java.util.concurrent.CyclicBarrier} would block the scheduler's one running slot). The last of
 * {@code parties} threads to arrive runs the action, starts the next round and wakes the others; a waiter parks
 * until then, its bound passes, or {@link #breakAll()}.
 *
 * <p>Blocking: {@link #await} waits for the other parties, for at most its bound on the caller's
 * {@link ThreadTime} clock. The monitor is held only for bookkeeping, never across a wait: under the
 * virtual-time scheduler, where one thread runs at a time, it is never contended. Not exported.
 */
public final class RunBarrier {
    private final int parties;
    private final Runnable action;
    private final List<Thread> waiting = new ArrayList<>();
    private int arrived;
    private long round;
    private boolean broken;

    /**
     * @param parties how many threads meet in each round, 1 or more
     * @param action  run by the last thread to arrive, before the others are released
     * @throws BadArgumentException when {@code parties} is below 1
     */
    public RunBarrier(int parties, Runnable action) {
        if (parties < 1) {
            throw new BadArgumentException("a barrier needs 1 or more parties, got " + parties);
        }
        this.parties = parties;
        this.action = action;
    }

    /** @param parties how many threads meet in each round, 1 or more */
    public RunBarrier(int parties) {
        this(parties, () -> { });
    }

    /**
     * Arrives and waits for the round's other parties.
     *
     * @param bound the longest wait, on the caller's {@link ThreadTime} clock
     * @throws RemoteTimeoutException when the round did not complete within {@code bound} (the barrier is then broken)
     * @throws RemusException         when the barrier is or gets broken ({@link #breakAll()}, the action failed)
     */
    public void await(Duration bound) {
        long mine;
        List<Thread> wake;
        synchronized (this) {
            if (broken) {
                throw new RemusException("the run's barrier is broken: another thread failed or gave up");
            }
            mine = round;
            if (++arrived < parties) {
                waiting.add(Thread.currentThread());
                wake = null;
            } else {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    breakLocked().forEach(ThreadTime::unpark);
                    throw e;
                }
                arrived = 0;
                round++;
                wake = new ArrayList<>(waiting);
                waiting.clear();
            }
        }
        if (wake != null) {
            wake.forEach(ThreadTime::unpark);
            return;
        }
        long deadline = ThreadTime.nanoTime() + bound.toNanos();
        while (true) {
            synchronized (this) {
                if (round != mine) {
                    return;
                }
                if (broken) {
                    throw new RemusException("the run's barrier is broken: another thread failed or gave up");
                }
            }
            long left = deadline - ThreadTime.nanoTime();
            if (left <= 0) {
                breakAll();
                throw new RemoteTimeoutException("the other threads did not arrive at the run's barrier within " + bound);
            }
            ThreadTime.parkNanos(this, left);
        }
    }

    /** Breaks the barrier: every waiter, and every later arrival, fails at once. */
    public void breakAll() {
        List<Thread> wake;
        synchronized (this) {
            wake = breakLocked();
        }
        wake.forEach(ThreadTime::unpark);
    }

    private List<Thread> breakLocked() {
        broken = true;
        List<Thread> wake = new ArrayList<>(waiting);
        waiting.clear();
        return wake;
    }
}
