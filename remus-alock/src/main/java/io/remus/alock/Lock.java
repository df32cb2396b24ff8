package io.remus.alock;

/**
 * One compute thread's handle on one shared lock word. Handles are not thread-safe: each belongs
 * to the Java thread that owns the compute thread of the {@link LockContext} that opened it, and
 * {@link #lock()} and {@link #unlock()} from any other Java thread throw
 * {@link io.remus.core.error.ThreadConfinementException} naming both threads, before anything changes.
 * A handle is not reentrant.
 */
public interface Lock {
    /** {@return the shared lock word (a {@link io.remus.core.memory.RemotePtr})} */
    long word();

    /**
     * Acquires the lock for this handle, waiting at most the context's acquire timeout.
     *
     * @throws LockUsageException   when this handle already holds it, or the compute thread is closed
     * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
     * @throws LockTimeoutException when the wait ran out; the handle holds nothing and stays usable (a queue
     *                              lock's waiter has left the queue, {@link io.remus.alock.mcs.QueueLock})
     */
    void lock();

    /**
     * Acquires the lock for this handle, as {@link #lock()} does, but ending every wait no later than
     * {@code deadlineNanos} (the context's acquire timeout still bounds each wait): for a caller whose
     * right to touch the lock word runs out at a known instant, e.g. a reclaimer's lease on the block
     * the word lies in. A wait cut short throws {@link LockTimeoutException} like a timeout, with the
     * same consequences (none for the handle or the word).
     *
     * @param deadlineNanos an instant of {@link io.remus.core.time.ThreadTime#nanoTime()} (the calling thread's clock:
     *                      {@link System#nanoTime()} on a host thread, virtual on the simulator's virtual-time
     *                      scheduler)
     * @throws LockUsageException   when this handle already holds it, or the compute thread is closed
     * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
     * @throws LockTimeoutException when a wait ran out, at the deadline or the timeout
     */
    void lock(long deadlineNanos);

    /**
     * Acquires the lock for this handle, as {@link #lock(long)} does, but asking {@code deadline} for the
     * instant on every pause of every wait, so that the caller can push it back while it waits (renewing a
     * lease on the word's block) or bring it forward. The context's acquire timeout still bounds each wait.
     *
     * @param deadline asked from this thread on every pause; must not block
     * @throws NullPointerException when {@code deadline} is null
     * @throws LockUsageException   when this handle already holds it, or the compute thread is closed
     * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
     * @throws LockTimeoutException when a wait ran out, at the deadline or the timeout
     */
    void lock(WaitDeadline deadline);

    /**
     * Releases the lock this handle holds, without waiting for anyone.
     *
     * @throws LockUsageException   when this handle does not hold it (never acquired, or already released)
     * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
     */
    void unlock();

    /** {@return whether this handle holds the lock} */
    boolean isHeld();

    /**
     * Acquires the lock as {@link #lock()} does (same waits, RDMA operations and exceptions) and returns a hold whose
     * {@link Held#close()} releases it as {@link #unlock()} does, so that a block runs under the lock and releases it
     * however it ends:
     * <pre>{@code
     * try (Lock.Held held = lock.acquire()) {
     *     ... // the critical section
     * }
     * }</pre>
     *
     * @return the hold; close it once
     * @throws LockUsageException   when this handle already holds it, or the compute thread is closed
     * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
     * @throws LockTimeoutException when the wait ran out; nothing is held
     */
    default Held acquire() {
        lock();
        return this::unlock;
    }

    /**
     * The lock held by one {@link #acquire()}, for a try-with-resources block: closing it releases the lock. It is
     * the handle's {@link #unlock()}: a second close, with the lock no longer held, throws {@link LockUsageException}.
     */
    @FunctionalInterface
    interface Held extends AutoCloseable {
        /**
         * Releases the lock ({@link Lock#unlock()}), without waiting for anyone.
         *
         * @throws LockUsageException when the handle does not hold the lock (already released)
         * @throws io.remus.core.error.ThreadConfinementException when called from a Java thread other than the owner
         */
        @Override
        void close();
    }
}
