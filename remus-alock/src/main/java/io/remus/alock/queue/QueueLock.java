package io.remus.alock.queue;

import io.remus.alock.LockContext;
import io.remus.alock.LockHandle;
import io.remus.alock.LockUsageException;

/**
 * A queue lock handle (MCS, ALock): each acquire takes a {@link QueueNode} from the thread's
 * {@link QueueNodePool} and the release gives it back. A failed acquire or release (a timeout, a
 * remote error) leaves the node possibly linked into the queue, so the handle is then broken and
 * refuses further use.
 */
public abstract class QueueLock extends LockHandle {
    private long node;
    private boolean broken;

    /**
     * @param context the thread's lock context (its node must be a memory node)
     * @param word    a zeroed {@link io.remus.alock.LockWord}
     * @param kind    the lock's name in messages
     */
    protected QueueLock(LockContext context, long word, String kind) {
        super(context, word, kind);
    }

    /**
     * Enqueues {@code node} and waits until the lock is this thread's.
     *
     * @param node a queue node of this thread
     */
    protected abstract void acquire(long node);

    /**
     * Passes the lock on from {@code node}, which no one references afterwards.
     *
     * @param node the queue node {@link #acquire} used
     */
    protected abstract void release(long node);

    @Override
    public final void lock() {
        context.checkOpen();
        checkNotBroken();
        if (node != 0) {
            throw new LockUsageException(describe() + " is already held by this handle");
        }
        long me = context.queueNodes().take();
        node = me;
        try {
            acquire(me);
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        }
    }

    @Override
    public final void unlock() {
        context.checkOpen();
        checkNotBroken();
        long me = node;
        if (me == 0) {
            throw new LockUsageException(describe() + " is not held by this handle");
        }
        try {
            release(me);
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        }
        node = 0;
        context.queueNodes().give(me);
    }

    @Override
    public final boolean isHeld() {
        return node != 0 && !broken;
    }

    private void checkNotBroken() {
        if (broken) {
            throw new LockUsageException(describe() + " handle is broken: an earlier wait failed with its queue node"
                    + " still queued");
        }
    }
}
