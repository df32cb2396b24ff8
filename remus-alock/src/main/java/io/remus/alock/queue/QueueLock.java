package io.remus.alock.queue;

import io.remus.alock.LockContext;
import io.remus.alock.LockHandle;
import io.remus.alock.LockUsageException;
import io.remus.core.RemotePtr;

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
     * Creates a handle on a queue lock word for the context's thread.
     *
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

    /**
     * Links {@code me} into {@code predecessor}'s queue node: an RDMA compare-and-swap of its
     * {@link QueueNode#NEXT} from 0 to {@code me} (a CPU store where the predecessor's node is on
     * this thread's node).
     * Not an RDMA WRITE: the predecessor polls that word with CPU reads, and Soft-RoCE stores a
     * WRITE's 8 bytes in pieces, so the predecessor could follow half a pointer
     * (softroce/README.md). A NIC atomic is stored whole, and CPU reads are atomic with it on every
     * device.
     *
     * @param predecessor the queue node before this thread's
     * @param me          this thread's queue node
     * @throws IllegalStateException if the predecessor's node already had a successor
     */
    protected final void link(long predecessor, long me) {
        publish(RemotePtr.offset(predecessor, QueueNode.NEXT), 0, me, "successor");
    }

    /**
     * Hands the lock to {@code successor} with {@code budget}: its {@link QueueNode#BUDGET} goes
     * from {@link QueueNode#WAITING} to {@code budget} by RDMA compare-and-swap, for the reason
     * {@link #link} gives (a half-stored budget could also finish landing after the successor
     * moved on and re-queued the node).
     *
     * @param successor the queue node after this thread's
     * @param budget    what the successor receives
     * @throws IllegalStateException if the successor was not waiting
     */
    protected final void handOver(long successor, long budget) {
        publish(RemotePtr.offset(successor, QueueNode.BUDGET), QueueNode.WAITING, budget, "budget");
    }

    private void publish(long field, long expected, long value, String what) {
        if (RemotePtr.node(field) == thread.nodeId()) {
            thread.writeLocal(field, value); // a CPU store: whole for the CPU that polls it
            return;
        }
        long seen = thread.compareAndSwap(field, expected, value);
        if (seen != expected) {
            throw new IllegalStateException(describe() + ": the queue node at " + RemotePtr.toString(field)
                    + " held " + what + " " + seen + ", not " + expected);
        }
    }

    private void checkNotBroken() {
        if (broken) {
            throw new LockUsageException(describe() + " handle is broken: an earlier wait failed with its queue node"
                    + " still queued");
        }
    }
}
