package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.util.Objects;

/**
 * What every lock handle holds: its thread's {@link LockContext} and compute thread, the shared
 * {@link LockWord}, and the bound on its spin waits. Not thread-safe, like the handles.
 */
public abstract class LockHandle implements Lock {
    /** The owning thread's lock context. */
    protected final LockContext context;
    /** The owning thread's compute thread. */
    protected final ComputeThread thread;
    /** The shared lock word. */
    protected final long word;
    /** The bound on each wait, from the context's acquire timeout. */
    protected final SpinBound spin;
    private final String description;
    /** What {@link #acquire()} returns: this handle's {@link #unlock()}, made once. */
    private final Held held = this::unlock;

    /**
     * Creates a handle on a lock word for the context's thread.
     *
     * @param context the thread's lock context
     * @param word    a zeroed {@link LockWord}
     * @param kind    the lock's name in messages, e.g. {@code "MCS lock"}
     * @throws io.remus.core.error.BadArgumentException when the word is null or misaligned
     */
    protected LockHandle(LockContext context, long word, String kind) {
        this.context = Objects.requireNonNull(context, "context");
        this.thread = context.thread();
        this.word = LockWord.checkAligned(word);
        this.spin = new SpinBound(context.options().acquireTimeout());
        this.description = kind + " " + RemotePtr.toString(word);
    }

    @Override
    public final long word() {
        return word;
    }

    @Override
    public final void lock(long deadlineNanos) {
        spin.cap(deadlineNanos);
        try {
            lock();
        } finally {
            spin.uncap();
        }
    }

    @Override
    public final void lock(WaitDeadline deadline) {
        spin.cap(deadline);
        try {
            lock();
        } finally {
            spin.uncap();
        }
    }

    /** As {@link Lock#acquire()}, returning the same hold each time (no allocation per acquire). */
    @Override
    public final Held acquire() {
        lock();
        return held;
    }

    /** {@return the lock's name and word, for messages (made once)} */
    protected final String describe() {
        return description;
    }
}
