package io.remus.core.time;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's side of a scheduled thread that is a Java virtual thread: its clock and its waits, as
 * {@link ScheduledThread} has them for a platform thread. A virtual thread cannot be subclassed, so the
 * scheduler keeps its state here and binds the handle to the thread: {@link ThreadTime} finds the handle of
 * the current virtual thread through a thread-local variable, and {@link ThreadTime#unpark(Thread)} finds the
 * handle of another thread through a lookup by that thread (never a traversal, so no identity hash code
 * decides anything).
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

    /** {@return the handle bound to the current thread, or null; call only on a virtual thread} */
    protected static ScheduledHandle current() {
        return CURRENT.get();
    }

    /**
     * {@return the handle attached to {@code thread}, or null}
     *
     * @param thread a virtual thread
     */
    static ScheduledHandle of(Thread thread) {
        return BY_THREAD.get(thread);
    }

    /** {@return the thread's clock, in nanoseconds} */
    protected abstract long clockNanos();

    /**
     * As {@link ScheduledThread#spin(String)}.
     *
     * @param awaited what is awaited, for a report of threads that wait on each other; may be null
     */
    protected abstract void spin(String awaited);

    /**
     * As {@link ScheduledThread#park(Object, long)}.
     *
     * @param blocker what it waits for, for reports; may be null
     * @param nanos   the longest wait, 0 or more
     */
    protected abstract void park(Object blocker, long nanos);

    /** As {@link ScheduledThread#wake()}. Callable from any thread. */
    protected abstract void wake();

    /**
     * As {@link ScheduledThread#charge(long)}.
     *
     * @param nanos the work's time, 0 or more
     */
    protected abstract void charge(long nanos);

    /** As {@link ScheduledThread#localAccess()}. */
    protected abstract void localAccess();

    /**
     * As {@link ScheduledThread#newSibling(String, Runnable)}.
     *
     * @param name its name
     * @param task what it runs
     * @return the thread, not started
     */
    protected abstract Thread newSibling(String name, Runnable task);

    /**
     * As {@link ScheduledThread#awaitEnd(Thread, long)}.
     *
     * @param other a thread
     * @param nanos the longest wait, 0 or more
     * @return whether it ended
     */
    protected abstract boolean awaitEnd(Thread other, long nanos);
}
