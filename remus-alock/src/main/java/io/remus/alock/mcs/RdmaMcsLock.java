package io.remus.alock.mcs;

import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.queue.QueueLock;
import io.remus.alock.queue.QueueNode;
import io.remus.core.RemotePtr;

/**
 * The baseline RDMA MCS lock (Mellor-Crummey and Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors", ACM TOCS 1991) with every step on the NIC: the tail (word 0 of
 * the {@link LockWord}) is swapped by an RDMA compare-and-swap loop (RDMA has no swap; the first
 * attempt expects an empty queue, so an uncontended swap is one NIC operation), a waiter links
 * itself into its predecessor's {@link QueueNode} and spins on its own queue node (on its own
 * node, so the spin reads memory locally), the releaser hands over or empties the queue. Linking
 * and handing over are RDMA compare-and-swaps rather than the writes of the original: Soft-RoCE
 * stores a WRITE's 8 bytes in pieces, and the spinning CPU could act on half of one
 * ({@link QueueLock#link}). Threads on the home node go through loopback, as
 * they must for the tail's atomicity.
 *
 * <p>Progress: starvation-free, FIFO (first come, first served from the tail swap on).
 */
public final class RdmaMcsLock extends QueueLock {
    private static final long GRANTED = 1;

    /**
     * Creates this thread's handle on an MCS lock word.
     *
     * @param context the thread's lock context (its node must be a memory node)
     * @param word    a zeroed {@link LockWord}
     */
    public RdmaMcsLock(LockContext context, long word) {
        super(context, word, "MCS lock");
    }

    @Override
    protected void acquire(long me) {
        thread.write(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
        thread.write(RemotePtr.offset(me, QueueNode.NEXT), 0);
        long predecessor = swapTail(me);
        if (predecessor != 0) {
            link(predecessor, me);
            long budget = RemotePtr.offset(me, QueueNode.BUDGET);
            spin.start();
            while (thread.read(budget) == QueueNode.WAITING) {
                spin.pause("hand-over of", describe());
            }
        }
    }

    private long swapTail(long me) {
        long seen = 0;
        spin.start();
        while (true) {
            long old = thread.compareAndSwap(word, seen, me);
            if (old == seen) {
                return old;
            }
            seen = old;
            spin.pause("joining the queue of", describe());
        }
    }

    @Override
    protected void release(long me) {
        long nextField = RemotePtr.offset(me, QueueNode.NEXT);
        long next = thread.read(nextField);
        if (next == 0) {
            if (thread.compareAndSwap(word, me, 0) == me) {
                return;
            }
            spin.start();
            while ((next = thread.read(nextField)) == 0) {
                spin.pause("successor linking into", describe());
            }
        }
        handOver(next, GRANTED);
    }
}
