package io.remus.core.time;

/**
 * A Java thread whose clock and waits a scheduler decides instead of the host: the simulator's
 * virtual-time scheduler ({@code io.remus.core.sim.VirtualTimeScheduler}) runs its threads one at a time,
 * each with a clock of its own. {@link ThreadTime} asks the current thread whether it is one and, if so,
 * routes every clock reading and every wait of the library to it.
 *
 * <p>A user never subclasses it: it is public only so that the simulator, in another package, can.
 */
public abstract class ScheduledThread extends Thread {
    /**
     * Creates an unstarted scheduled thread.
     *
     * @param task what it runs
     * @param name its name
     */
    protected ScheduledThread(Runnable task, String name) {
        super(task, name);
    }

    /** {@return this thread's clock, in nanoseconds} */
    protected abstract long clockNanos();

    /**
     * One unsuccessful check of a condition another thread or the fabric will change: the time of one
     * check passes and the other threads run.
     *
     * @param awaited what is awaited, for a report of threads that wait on each other; may be null
     */
    protected abstract void spin(String awaited);

    /**
     * Waits until {@link #wake()} or for {@code nanos} of this thread's clock, whichever comes first.
     *
     * @param blocker what it waits for, for reports; may be null
     * @param nanos   the longest wait, 0 or more
     */
    protected abstract void park(Object blocker, long nanos);

    /** Ends this thread's {@link #park}, or makes its next one return at once. Callable from any thread. */
    protected abstract void wake();

    /**
     * CPU work of {@code nanos} passes on this thread's clock.
     *
     * @param nanos the work's time, 0 or more
     */
    protected abstract void charge(long nanos);

    /** A CPU access (load, store or atomic) of the node's own memory passes on this thread's clock. */
    protected abstract void localAccess();

    /**
     * Creates an unstarted thread that the same scheduler runs.
     *
     * @param name its name
     * @param task what it runs
     * @return the thread, not started
     */
    protected abstract Thread newSibling(String name, Runnable task);

    /**
     * Waits until {@code other} ends, for at most {@code nanos} of this thread's clock.
     *
     * @param other a thread
     * @param nanos the longest wait, 0 or more
     * @return whether it ended
     */
    protected abstract boolean awaitEnd(Thread other, long nanos);
}
