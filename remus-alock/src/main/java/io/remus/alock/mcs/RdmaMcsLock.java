package io.remus.alock.mcs;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockUsageException;
import io.remus.alock.LockWord;
import io.remus.alock.SpinBound;
import io.remus.alock.queue.QueueNode;
import io.remus.alock.queue.QueueNodePool;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

/**
 * The baseline RDMA MCS lock (Mellor-Crummey and Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors", ACM TOCS 1991) with every step on the NIC: the tail (word 0 of
 * the {@link LockWord}) is swapped by an RDMA compare-and-swap loop (RDMA has no swap), a waiter
 * links itself into its predecessor's {@link QueueNode} by RDMA write and spins on its own queue
 * node (on its own node, so the spin reads memory locally), the releaser hands over by RDMA write
 * or empties the queue by RDMA compare-and-swap. Threads on the home node go through loopback, as
 * they must for the tail's atomicity.
 *
 * <p>Progress: starvation-free, FIFO (first come, first served from the tail swap on).
 */
public final class RdmaMcsLock implements Lock {
    private static final long GRANTED = 1;

    private final LockContext context;
    private final ComputeThread thread;
    private final long word;
    private final SpinBound spin;
    private long node;
    private boolean broken;

    /**
     * @param context the thread's lock context (its node must be a memory node)
     * @param word    a zeroed {@link LockWord}
     */
    public RdmaMcsLock(LockContext context, long word) {
        this.context = context;
        this.thread = context.thread();
        this.word = LockWord.checkAligned(word);
        this.spin = new SpinBound(context.options().acquireTimeout());
    }

    @Override
    public long word() {
        return word;
    }

    @Override
    public void lock() {
        context.checkOpen();
        checkNotBroken();
        if (node != 0) {
            throw new LockUsageException("MCS lock " + RemotePtr.toString(word) + " is already held by this handle");
        }
        QueueNodePool pool = context.queueNodes();
        long me = pool.take();
        try {
            thread.write(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
            thread.write(RemotePtr.offset(me, QueueNode.NEXT), 0);
        } catch (RuntimeException e) {
            pool.give(me);
            throw e;
        }
        node = me;
        long predecessor = swapTail(me);
        if (predecessor != 0) {
            thread.write(RemotePtr.offset(predecessor, QueueNode.NEXT), me);
            long budget = RemotePtr.offset(me, QueueNode.BUDGET);
            spin.start();
            try {
                while (thread.read(budget) == QueueNode.WAITING) {
                    spin.pause("hand-over of MCS lock " + RemotePtr.toString(word));
                }
            } catch (RuntimeException e) {
                broken = true;
                throw e;
            }
        }
    }

    private void checkNotBroken() {
        if (broken) {
            throw new LockUsageException("MCS lock handle on " + RemotePtr.toString(word)
                    + " is broken: an earlier wait timed out with its queue node still queued");
        }
    }

    private long swapTail(long me) {
        long seen = thread.read(word);
        while (true) {
            long old = thread.compareAndSwap(word, seen, me);
            if (old == seen) {
                return old;
            }
            seen = old;
        }
    }

    @Override
    public void unlock() {
        context.checkOpen();
        checkNotBroken();
        long me = node;
        if (me == 0) {
            throw new LockUsageException("MCS lock " + RemotePtr.toString(word) + " is not held by this handle");
        }
        long nextField = RemotePtr.offset(me, QueueNode.NEXT);
        long next = thread.read(nextField);
        if (next == 0) {
            if (thread.compareAndSwap(word, me, 0) == me) {
                release(me);
                return;
            }
            spin.start();
            while ((next = thread.read(nextField)) == 0) {
                spin.pause("successor linking into MCS lock " + RemotePtr.toString(word));
            }
        }
        thread.write(RemotePtr.offset(next, QueueNode.BUDGET), GRANTED);
        release(me);
    }

    private void release(long me) {
        node = 0;
        context.queueNodes().give(me);
    }

    @Override
    public boolean isHeld() {
        return node != 0 && !broken;
    }
}
