package io.remus.alock.mcs;

import io.remus.alock.LockContext;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockWord;
import io.remus.alock.queue.QueueNode;
import io.remus.core.memory.RemotePtr;

/**
 * The baseline RDMA MCS lock (Mellor-Crummey and Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors", ACM TOCS 1991) with every step on the NIC: the tail (word 0 of
 * the {@link LockWord}) is swapped by an RDMA compare-and-swap loop (RDMA has no swap; the first
 * attempt expects an empty queue, so an uncontended swap is one NIC operation), a waiter links
 * itself into its predecessor's {@link QueueNode} and spins on its own queue node (on its own
 * node, so the spin reads memory locally), the releaser hands over or empties the queue. A thread
 * resets its own queue node with CPU stores ({@code ComputeThread.writeLocal}) before the tail swap
 * publishes it, as ALock's remote cohort does: nothing else touches the node until then, so the stores
 * need neither the NIC nor its atomicity. Linking
 * and handing over are RDMA compare-and-swaps rather than the writes of the original, through loopback
 * where the neighbour's node is this thread's: Soft-RoCE stores a WRITE's 8 bytes in pieces, and the
 * spinning CPU could act on half of one ({@link QueueLock#link}), and a waiter that times out swaps its own
 * node's budget, which must be atomic with its predecessor's hand-over. Threads on the home node go through
 * loopback, as they must for the tail's atomicity.
 *
 * <p>A waiter that times out leaves the queue and a release never waits for a successor to link
 * ({@link QueueLock} describes the protocol). Per call: an uncontended lock is one compare-and-swap (and two
 * CPU stores), a contended one the tail swap (a loop), the link and the local spin; a release is one READ (local) and one
 * compare-and-swap (two when its successor swapped the tail but has not linked yet), plus one READ and two
 * compare-and-swaps for each abandoned node it passes.
 *
 * <p>Progress: starvation-free, FIFO (first come, first served from the tail swap on) among the waiters that
 * do not time out; a release never waits (its steps grow only with the abandoned nodes it passes).
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
    protected boolean cpuQueue() {
        return false;
    }

    @Override
    protected long tailWord() {
        return word;
    }

    @Override
    protected void acquire(long me) {
        thread.writeLocal(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
        thread.writeLocal(RemotePtr.offset(me, QueueNode.NEXT), 0);
        long predecessor;
        try {
            predecessor = swapTail(me);
        } catch (LockTimeoutException e) {
            withdraw(me);
            throw e;
        }
        if (predecessor != 0 && link(predecessor, me)) {
            long budget = RemotePtr.offset(me, QueueNode.BUDGET);
            spin.start();
            try {
                while (thread.read(budget) == QueueNode.WAITING) {
                    spin.pause("hand-over of", describe());
                }
            } catch (LockTimeoutException e) {
                if (abandon(me) == QueueNode.WAITING) {
                    throw e;
                }
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
    protected boolean release(long me) {
        return passOn(me, GRANTED);
    }
}
