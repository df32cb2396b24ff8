package io.remus.core;

import io.remus.core.fabric.CompletionStatus;

/**
 * A reusable handle on one asynchronous operation (or one doorbell batch) of a
 * {@link ComputeThread}. The thread owns a fixed pool of handles, one per operation it may have in
 * flight; {@link #await()} returns the handle to the pool, so a handle must not be used after its
 * await. Polling and awaiting allocate nothing. Not thread-safe: only the owning thread uses it.
 */
public final class OpHandle {
    enum State { FREE, PENDING, DONE, ABANDONED }

    private final ComputeThread owner;
    final int slot;
    int generation;
    State state = State.FREE;
    CompletionStatus status = CompletionStatus.SUCCESS;
    int node;
    int lane;
    long resultOffset;
    long localValue;
    boolean hasLocalValue;

    OpHandle(ComputeThread owner, int slot) {
        this.owner = owner;
        this.slot = slot;
    }

    /**
     * Drives the thread's completion queue once and reports whether this operation has finished.
     *
     * @return whether {@link #await()} would return without waiting
     */
    public boolean poll() {
        if (state == State.PENDING) {
            owner.progress();
        }
        return state == State.DONE;
    }

    /**
     * Waits (bounded by the configured operation timeout) for the operation to finish, returns the
     * handle to the pool and reports the result.
     *
     * @return the old value of an atomic, the word of a word read, otherwise 0
     * @throws RemoteOperationException when the operation completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the timeout
     * @throws BadArgumentException     when the handle was already awaited
     */
    public long await() {
        return owner.await(this);
    }
}
