package io.remus.core.time;

import io.remus.core.error.BadArgumentException;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock and the waits of the current thread, real or virtual: every clock reading and every wait
 * of the library goes through here. On a host thread they are the JDK's ({@link System#nanoTime()},
 * {@link Thread#onSpinWait()}, {@link Thread#yield()}, {@link LockSupport#parkNanos(Object, long)}); on a
 * scheduled thread of the simulator's virtual-time scheduler they are that scheduler's: the clock is
 * the thread's virtual clock, and a wait lets the other scheduled threads run while virtual time passes.
 *
 * {@snippet :
 * long deadline = ThreadTime.nanoTime() + timeoutNanos;
 * while (!done()) {
 *     if (ThreadTime.nanoTime() - deadline > 0) {
 *         throw new IllegalStateException("not done in time");
 *     }
 *     ThreadTime.onSpinWait("done flag");
 * }
 * }
 *
 * <p>Code run on the virtual-time scheduler must wait only here (never in {@link Object#wait()},
 * {@link Thread#join()}, {@link java.util.concurrent.locks.LockSupport#park()} or a blocking queue),
 * and must start the threads it needs with {@link #newThread}: a thread blocked by the JDK holds the
 * scheduler's one running slot, and the scheduler ends the run with a typed error naming it. Every
 * method is wait-free on a host thread and allocates nothing.
 *
 * <p>A scheduled thread's clock and waits are its {@link ScheduledHandle}: a platform thread, a
 * {@link ScheduledThread}, carries it (found by one type check); a Java virtual thread has it bound (found by a
 * thread-local lookup, made only when the current thread is virtual): a host platform thread pays a type check
 * and {@link Thread#isVirtual()}.
 */
public final class ThreadTime {
    private ThreadTime() {
    }

    /** {@return the current thread's clock in nanoseconds: {@link System#nanoTime()} or its virtual clock} */
    public static long nanoTime() {
        ScheduledHandle h = ScheduledHandle.current();
        return h != null ? h.clockNanos() : System.nanoTime();
    }

    /** {@return whether the current thread runs under a virtual-time scheduler} */
    public static boolean isScheduled() {
        return ScheduledHandle.current() != null;
    }

    /**
     * One unsuccessful check of a condition that another thread or the NIC will change, in a spin loop:
     * {@link Thread#onSpinWait()}, or on a scheduled thread the time of one check of local memory.
     */
    public static void onSpinWait() {
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.spin(null);
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * As {@link #onSpinWait()}, naming what is awaited: a virtual-time run whose threads all wait on each
     * other names it in its error.
     *
     * @param awaited what is awaited, e.g. {@code "completion of work request 17"}
     */
    public static void onSpinWait(String awaited) {
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.spin(awaited);
        } else {
            Thread.onSpinWait();
        }
    }

    /** Gives the processor to another thread: {@link Thread#yield()}, or on a scheduled thread one check's time. */
    public static void yield() {
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.spin(null);
        } else {
            Thread.yield();
        }
    }

    /**
     * Waits until {@link #unpark} of this thread, a spurious return, or {@code nanos} passing:
     * {@link LockSupport#parkNanos(Object, long)}, or on a scheduled thread until {@link #unpark} or
     * {@code nanos} of virtual time.
     *
     * @param blocker what it waits for, for thread dumps and reports; may be null
     * @param nanos   the longest wait; 0 or less returns at once
     */
    public static void parkNanos(Object blocker, long nanos) {
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.park(blocker, Math.max(0, nanos));
        } else if (nanos > 0) {
            LockSupport.parkNanos(blocker, nanos);
        }
    }

    /**
     * Ends {@code thread}'s {@link #parkNanos}, or makes its next one return at once.
     *
     * @param thread the thread to wake; null does nothing
     */
    public static void unpark(Thread thread) {
        if (thread == null) {
            return;
        }
        ScheduledHandle h = ScheduledHandle.of(thread);
        if (h != null) {
            h.wake();
        } else {
            LockSupport.unpark(thread);
        }
    }

    /**
     * CPU work of {@code nanos} passes: nothing on a host thread (the work took its own time); on a
     * scheduled thread its virtual clock moves on by {@code nanos}.
     *
     * @param nanos the work's time
     * @throws BadArgumentException when {@code nanos} is negative
     */
    public static void charge(long nanos) {
        if (nanos < 0) {
            throw new BadArgumentException("charged CPU time must be 0 or more nanoseconds, got " + nanos);
        }
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.charge(nanos);
        }
    }

    /**
     * A CPU load, store or atomic of the node's own memory (not through the NIC) passes: nothing on a host thread; on
     * a scheduled thread its clock moves on by the run's local-access time, so that locality shows in virtual time
     * as it does on hardware. The library calls it where it touches its own node's memory with the CPU.
     */
    public static void onLocalAccess() {
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            h.localAccess();
        }
    }

    /**
     * Creates an unstarted thread for {@code task}: a platform thread, or on a scheduled thread one the same
     * scheduler runs (a platform or a virtual thread, as the scheduler's carriers are). The caller may set it
     * daemon, then starts it.
     *
     * @param name the thread's name
     * @param task what it runs
     * @return the thread, not started
     * @throws NullPointerException when an argument is null
     */
    public static Thread newThread(String name, Runnable task) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(task, "task");
        ScheduledHandle h = ScheduledHandle.current();
        return h != null ? h.newSibling(name, task) : new Thread(task, name);
    }

    /**
     * Waits until {@code thread} ends, for at most {@code timeoutNanos} of the current thread's clock.
     *
     * @param thread       a started thread
     * @param timeoutNanos the longest wait, 0 or more
     * @return whether it ended
     * @throws InterruptedException when a host thread is interrupted while it waits
     * @throws BadArgumentException when {@code timeoutNanos} is negative
     */
    public static boolean join(Thread thread, long timeoutNanos) throws InterruptedException {
        Objects.requireNonNull(thread, "thread");
        if (timeoutNanos < 0) {
            throw new BadArgumentException("join timeout must be 0 or more nanoseconds, got " + timeoutNanos);
        }
        ScheduledHandle h = ScheduledHandle.current();
        if (h != null) {
            return h.awaitEnd(thread, timeoutNanos);
        }
        thread.join(java.time.Duration.ofNanos(Math.max(1, timeoutNanos)));
        return !thread.isAlive();
    }
}
