package io.remus.core.sim;

import io.remus.core.time.ThreadTime;
import io.remus.core.fabric.Opcode;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test hook of the simulated fabric that freezes one Java thread in the middle of its work: the
 * thread is parked just before the simulated NIC applies one of the work requests its queue pairs
 * execute, so every request before it has landed at its target and none after it has. Armed with
 * {@link SimFabric#freeze(Thread, int, Duration)} or {@link SimFabric#freeze(Thread, Opcode, int, Duration)};
 * at most one per fabric at a time.
 *
 * <p>The thread counts the work requests it is about to apply, on any of its queue pairs, from the
 * moment the freeze is armed (a work request posted earlier but applied later counts); a freeze armed
 * with an operation counts only work requests of that operation. It lets the first {@code skip} counted
 * ones through and parks before the next work request of any operation, until {@link #release()} or
 * until the freeze's own deadline passes, whichever comes first: a test that forgets to release never
 * hangs. So {@code skip} 1 counting {@code WRITE} parks a thread that posts a WRITE and a
 * compare-and-swap in one batch after the WRITE landed and before the compare-and-swap. A request that
 * completes with an error instead of being applied (a node that stopped answering, a link a partition
 * cut, an injected failure, a flushed queue pair) neither counts nor parks.
 *
 * <p>The simulator executes a queue pair's work on the thread that owns it (the one that posts and
 * polls), so freezing a compute thread's Java thread stops exactly that compute thread's operations,
 * as a descheduled or stopped process would be stopped on a real fabric. When no freeze is armed, the
 * cost is one volatile load per applied work request. Thread-safe.
 */
public final class SimFreeze {
    private final SimFabric fabric;
    private final Thread thread;
    private final Opcode counted;
    private final int skip;
    private final long maxFrozenNanos;
    private final CountDownLatch frozen = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);
    private int applied;
    private volatile Opcode frozenAt;
    private volatile boolean expired;

    SimFreeze(SimFabric fabric, Thread thread, Opcode counted, int skip, Duration maxFrozen) {
        this.fabric = fabric;
        this.thread = thread;
        this.counted = counted;
        this.skip = skip;
        this.maxFrozenNanos = maxFrozen.toNanos();
    }

    /** {@return the thread this freeze stops} */
    public Thread thread() {
        return thread;
    }

    /** {@return the operation whose work requests are counted, or {@code null} when all are} */
    public Opcode counted() {
        return counted;
    }

    /** {@return how many counted work requests the thread applies before it is parked} */
    public int skip() {
        return skip;
    }

    /**
     * Waits until the thread is parked.
     *
     * @param timeout how long to wait
     * @return whether it is parked (or was, and has resumed since)
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitFrozen(Duration timeout) throws InterruptedException {
        return await(frozen, timeout.toNanos());
    }

    /** {@return whether the thread is parked now} */
    public boolean isFrozen() {
        return frozen.getCount() == 0 && resumed.getCount() != 0;
    }

    /** {@return the operation of the work request the thread was parked before, or {@code null} before it was} */
    public Opcode frozenAt() {
        return frozenAt;
    }

    /**
     * Lets the thread go on, or, before it was parked, disarms the freeze so that it never is. Idempotent.
     */
    public void release() {
        released.countDown();
        fabric.disarm(this);
    }

    /**
     * Waits until a parked thread has left the hook, so that the work request it was parked before is
     * being applied.
     *
     * @param timeout how long to wait
     * @return whether it resumed
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitResumed(Duration timeout) throws InterruptedException {
        return await(resumed, timeout.toNanos());
    }

    /** How often a scheduled thread checks a latch it waits on: 10 us of its clock. */
    private static final long CHECK_NANOS = 10_000;

    /**
     * Waits for {@code latch} for at most {@code nanos}: in the JDK on a host thread, or checking it every
     * {@link #CHECK_NANOS} of virtual time on a thread of the virtual-time scheduler, which must not block in the JDK.
     */
    private static boolean await(CountDownLatch latch, long nanos) throws InterruptedException {
        if (!ThreadTime.isScheduled()) {
            return latch.await(nanos, TimeUnit.NANOSECONDS);
        }
        long deadline = ThreadTime.nanoTime() + nanos;
        while (latch.getCount() > 0) {
            long left = deadline - ThreadTime.nanoTime();
            if (left <= 0) {
                return false;
            }
            ThreadTime.parkNanos(latch, Math.min(left, CHECK_NANOS));
        }
        return true;
    }

    /** {@return whether the thread resumed because the freeze's deadline passed before {@link #release()}} */
    public boolean expired() {
        return expired;
    }

    /** Called by an applying thread just before it applies a work request of operation {@code op}. */
    void beforeApply(Opcode op) {
        if (Thread.currentThread() != thread || released.getCount() == 0) {
            return;
        }
        if (applied < skip) {
            if (counted == null || op == counted) {
                applied++;
            }
            return;
        }
        fabric.disarm(this);
        frozenAt = op;
        frozen.countDown();
        boolean interrupted = false;
        long deadline = ThreadTime.nanoTime() + maxFrozenNanos;
        try {
            while (true) {
                try {
                    long left = deadline - ThreadTime.nanoTime();
                    if (!await(released, Math.max(0, left))) {
                        expired = true;
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            resumed.countDown();
            if (interrupted) {
                thread.interrupt();
            }
        }
    }
}
