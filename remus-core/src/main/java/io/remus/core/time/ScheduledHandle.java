package io.remus.core.time;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's side of a scheduled thread: its clock and its waits, the hooks {@link ThreadTime} routes the
 * current thread's clock readings and waits to. A platform thread carries its handle (a {@link ScheduledThread});
 * a Java virtual thread cannot be subclassed, so the scheduler binds the handle to it instead: {@link ThreadTime}
 * finds the handle of the current virtual thread through a thread-local variable, and
 * {@link ThreadTime#unpark(Thread)} finds the handle of another virtual thread through a lookup by that thread
 * (never a traversal, so no identity hash code decides anything).
 *
 * <p>A user never subclasses it: it is public only so that the simulator, in another package, can.
 */
public abstract class ScheduledHandle {
    private static final ThreadLocal<ScheduledHandle> CURRENT = new ThreadLocal<>();
    private static final Map<Thread, ScheduledHandle> BY_THREAD = new ConcurrentHashMap<>();

    /** Creates a handle bound to no thread yet. */
    protected ScheduledHandle() {
    }

    /**
     * Makes the current thread's calls into {@link ThreadTime} come to this handle: the first thing the
     * scheduled virtual thread's runnable does.
     */
    protected final void bindCurrentThread() {
        CURRENT.set(this);
    }

    /** Undoes {@link #bindCurrentThread()} on the current thread: the last thing its runnable does. */
    protected final void unbindCurrentThread() {
        CURRENT.remove();
    }

    /**
     * Makes {@link ThreadTime#unpark(Thread)} of {@code thread}, from any thread, come to this handle's
     * {@link #wake()}.
     *
     * @param thread the virtual thread this handle schedules
     */
    protected final void attach(Thread thread) {
        BY_THREAD.put(thread, this);
    }

    /**
     * Undoes {@link #attach(Thread)}.
     *
     * @param thread the thread attached
     */
    protected final void detach(Thread thread) {
        BY_THREAD.remove(thread, this);
    }

    /**
     * {@return the handle of the current thread: the one a {@link ScheduledThread} carries, or the one bound to a
     *          virtual thread; null on any other thread}
     */
    protected static ScheduledHandle current() {
        Thread t = Thread.currentThread();
        if (t instanceof ScheduledThread s) {
            return s.handle;
        }
        return t.isVirtual() ? CURRENT.get() : null;
    }

    /**
     * {@return the handle of {@code thread}: the one a {@link ScheduledThread} carries, or the one attached to a
     *          virtual thread; null on any other thread}
     *
     * @param thread a thread
     */
    static ScheduledHandle of(Thread thread) {
        if (thread instanceof ScheduledThread s) {
            return s.handle;
        }
        return thread.isVirtual() ? BY_THREAD.get(thread) : null;
    }

    /** {@return the thread's clock, in nanoseconds} */
    protected abstract long clockNanos();

    /**
     * One unsuccessful check of a condition another thread or the fabric will change: the time of one
     * check passes and the other threads run.
     *
     * @param awaited what is awaited, for a report of threads that wait on each other; may be null
     */
    protected abstract void spin(String awaited);

    /**
     * Waits until {@link #wake()} or for {@code nanos} of the thread's clock, whichever comes first.
     *
     * @param blocker what it waits for, for reports; may be null
     * @param nanos   the longest wait, 0 or more
     */
    protected abstract void park(Object blocker, long nanos);

    /** Ends the thread's {@link #park}, or makes its next one return at once. Callable from any thread. */
    protected abstract void wake();

    /**
     * CPU work of {@code nanos} passes on the thread's clock.
     *
     * @param nanos the work's time, 0 or more
     */
    protected abstract void charge(long nanos);

    /** A CPU access (load, store or atomic) of the node's own memory passes on the thread's clock. */
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
     * Waits until {@code other} ends, for at most {@code nanos} of the thread's clock.
     *
     * @param other a thread
     * @param nanos the longest wait, 0 or more
     * @return whether it ended
     */
    protected abstract boolean awaitEnd(Thread other, long nanos);
}
