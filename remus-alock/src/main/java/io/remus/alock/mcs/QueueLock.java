package io.remus.alock.mcs;

import io.remus.alock.LockContext;
import io.remus.alock.LockHandle;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.queue.ParkedWaiters;
import io.remus.alock.queue.QueueNode;
import io.remus.alock.queue.QueueNodePool;
import io.remus.core.memory.RemotePtr;

/**
 * A queue lock handle (MCS, ALock): each acquire takes a {@link QueueNode} from the thread's
 * {@link QueueNodePool}, and the node goes back to the pool when the lock no longer references it. A waiter
 * whose wait times out leaves the queue, and the handle stays usable; only a failure of the fabric itself
 * (a remote error in the middle of the protocol) leaves the handle broken, refusing further use.
 *
 * <p><b>Protocol.</b> The queue is a list of queue nodes from the holder's to the tail word's. All changes of a
 * queue's words ({@link QueueNode#BUDGET}, {@link QueueNode#NEXT}, the tail) are compare-and-swaps of one kind
 * (CPU atomics for a queue that lives on one node and is touched by its CPUs only, else RDMA compare-and-swap,
 * through loopback on the thread's own node too), so that an owner giving up and a neighbour storing into its
 * node are atomic with each other. Whoever may decide the lock's next owner (the holder, or a cohort leader
 * giving up) <em>passes it on</em> ({@link #passOn}) from a node: when the node's successor has linked, it
 * swaps the successor's budget from {@link QueueNode#WAITING} to the budget it passes; if it finds
 * {@link QueueNode#ABANDONED} instead, that waiter gave up, so it marks that node {@link QueueNode#PASSED} (the
 * last store anyone makes into it) and passes the lock on from it in turn. When no successor has linked, it
 * swaps the tail from the node to empty; when the tail has moved on, a successor is about to link, and instead
 * of waiting for it, it swaps the node's next from 0 to {@link QueueNode#RELEASED}: the successor's link finds
 * that, acknowledges it ({@link QueueNode#ACKNOWLEDGED}, the last store into the node) and owns the lock
 * without a budget (ALock: it re-arbitrates). A waiter gives up by swapping its own budget from
 * {@link QueueNode#WAITING} to {@link QueueNode#ABANDONED}: exactly one of that swap and the predecessor's
 * hand-over wins, so a waiter either leaves without the lock or gets it. A waiter that gave up while it waited
 * for its hand-over leaves its node {@linkplain QueueNodePool#defer deferred}: the pool reuses it once the lock
 * has passed it; behind a holder that never releases, that is never, and the pool grows instead.
 *
 * <p>So a release never waits: it costs one read of its own node's next and one compare-and-swap (on the
 * successor's budget or the tail; two when the tail moved on before the successor linked: the tail, then its own
 * next), plus, for each abandoned node it goes past, one read and two compare-and-swaps. A waiter that times out costs one compare-and-swap more (a cohort leader that gives up
 * while it arbitrates: a pass, as above); a waiter whose predecessor released before it linked, one more.
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
     * Enqueues {@code node} and waits until the lock is this thread's. A wait that times out gives the node up
     * ({@link #withdraw}, {@link #abandon}, {@link #leave}) before it throws.
     *
     * @param node a queue node of this thread, reset by the caller's implementation before it queues
     * @throws LockTimeoutException when a wait ran out, the node given up
     */
    protected abstract void acquire(long node);

    /**
     * Passes the lock on from {@code node} ({@link #passOn}).
     *
     * @param node the queue node {@link #acquire} used
     * @return whether nothing references the node any more; else it is reusable once its successor acknowledged
     */
    protected abstract boolean release(long node);

    /**
     * {@return whether this handle's queue is touched by CPU atomics only (all its nodes and its tail on this
     *         thread's node), else by RDMA compare-and-swap}
     */
    protected abstract boolean cpuQueue();

    /** {@return the word holding this handle's queue's tail} */
    protected abstract long tailWord();

    @Override
    public final void lock() {
        context.checkOpen();
        checkNotBroken();
        if (node != 0) {
            throw new LockUsageException(describe() + " is already held by this handle");
        }
        long me = context.queueNodes().take();
        if (me == 0) {
            throw new LockUsageException("this thread already holds or waits for " + context.queueNodes().size()
                    + " queue locks (LockOptions.maxHeldLocks)");
        }
        node = me;
        try {
            acquire(me);
        } catch (LockTimeoutException e) {
            if (node != 0) {
                broken = true;
            }
            throw e;
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
        boolean free;
        try {
            free = release(me);
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        }
        node = 0;
        if (free) {
            context.queueNodes().give(me);
        } else {
            context.queueNodes().defer(me);
        }
    }

    @Override
    public final boolean isHeld() {
        return node != 0 && !broken;
    }

    /**
     * Gives back {@code me}, which never made it into the queue (the wait to swap the tail timed out).
     *
     * @param me this thread's queue node
     */
    protected final void withdraw(long me) {
        node = 0;
        context.queueNodes().give(me);
    }

    /**
     * Gives up waiting for the hand-over into {@code me}: its budget from {@link QueueNode#WAITING} to
     * {@link QueueNode#ABANDONED}, one compare-and-swap. When that wins, the node is deferred until the lock has
     * passed it, and the caller throws; when the hand-over won, the caller goes on with what it received.
     *
     * @param me this thread's queue node, linked behind its predecessor
     * @return {@link QueueNode#WAITING} when the waiter left the queue, else the budget handed over
     */
    protected final long abandon(long me) {
        long seen = cas(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING, QueueNode.ABANDONED);
        if (seen == QueueNode.WAITING) {
            node = 0;
            context.queueNodes().defer(me);
        }
        return seen;
    }

    /**
     * Leaves the queue from its head without having entered (an ALock cohort leader whose arbitration timed
     * out): passes the lock on from {@code me} with budget 0, so that the next waiter arbitrates in turn.
     *
     * @param me this thread's queue node, at the head of its queue
     */
    protected final void leave(long me) {
        boolean free = passOn(me, 0);
        node = 0;
        if (free) {
            context.queueNodes().give(me);
        } else {
            context.queueNodes().defer(me);
        }
    }

    /**
     * Links {@code me} behind {@code predecessor}: its next from 0 to {@code me}, one compare-and-swap. Not an
     * RDMA WRITE: the predecessor polls that word with CPU reads, and Soft-RoCE stores a WRITE's 8 bytes in
     * pieces, so the predecessor could follow half a pointer (softroce/README.md). When the predecessor already
     * passed the lock on ({@link QueueNode#RELEASED}), acknowledges that with a second compare-and-swap, after
     * which this thread owns the lock without a budget.
     *
     * @param predecessor the queue node before this thread's
     * @param me          this thread's queue node
     * @return true when linked (await the hand-over); false when this thread owns the lock now
     * @throws IllegalStateException if the predecessor's node held something else
     */
    protected final boolean link(long predecessor, long me) {
        long field = RemotePtr.offset(predecessor, QueueNode.NEXT);
        long seen = cas(field, 0, me);
        if (seen == 0) {
            return true;
        }
        if (seen == QueueNode.RELEASED) {
            seen = cas(field, QueueNode.RELEASED, QueueNode.ACKNOWLEDGED);
            if (seen == QueueNode.RELEASED) {
                return false;
            }
        }
        throw new IllegalStateException(describe() + ": the queue node at " + RemotePtr.toString(field)
                + " held successor " + seen + ", not 0 or " + QueueNode.RELEASED);
    }

    /**
     * Passes the lock on from {@code me}, as the class describes: to the first successor that still waits, with
     * {@code budget}, or to no one. Never waits.
     *
     * @param me     this thread's queue node, at the head of its queue
     * @param budget what the next owner receives
     * @return whether nothing references {@code me} any more
     * @throws IllegalStateException if a node held a value the protocol never stores
     */
    protected final boolean passOn(long me, long budget) {
        long tail = tailWord();
        long from = me;
        while (true) {
            long nextField = RemotePtr.offset(from, QueueNode.NEXT);
            long next = load(nextField);
            if (next == 0) {
                if (cas(tail, from, 0) == from) {
                    passed(from, me);
                    return true;
                }
                next = cas(nextField, 0, QueueNode.RELEASED);
                if (next == 0) {
                    return from != me;
                }
            }
            if (next == QueueNode.RELEASED || next == QueueNode.ACKNOWLEDGED) {
                throw new IllegalStateException(describe() + ": the queue node at " + RemotePtr.toString(nextField)
                        + " held " + next + " while its lock was passed on from it");
            }
            passed(from, me);
            long budgetField = RemotePtr.offset(next, QueueNode.BUDGET);
            long seen = cas(budgetField, QueueNode.WAITING, budget);
            if (seen == QueueNode.WAITING) {
                if (cpuQueue()) {
                    long parked = context.queueNodes().localWords().getVolatile(RemotePtr.offset(next, QueueNode.PARKED));
                    if (parked != 0) {
                        ParkedWaiters.unpark(parked);
                    }
                }
                return true;
            }
            if (seen != QueueNode.ABANDONED) {
                throw new IllegalStateException(describe() + ": the queue node at " + RemotePtr.toString(budgetField)
                        + " held budget " + seen + ", not " + QueueNode.WAITING + " or " + QueueNode.ABANDONED);
            }
            from = next;
        }
    }

    /** Marks {@code from}, an abandoned node the lock went past, reusable by its owner (not {@code me}). */
    private void passed(long from, long me) {
        if (from != me) {
            cas(RemotePtr.offset(from, QueueNode.BUDGET), QueueNode.ABANDONED, QueueNode.PASSED);
        }
    }

    /**
     * Loads a word of the queue by the queue's kind of access.
     *
     * @param field a word of the queue
     * @return its value: a CPU load for a CPU queue, else a read (local by CPU, remote by RDMA READ)
     */
    protected final long load(long field) {
        return cpuQueue() ? context.queueNodes().localWords().getVolatile(field) : thread.read(field);
    }

    /**
     * Compares and swaps a word of the queue by the queue's kind of atomic.
     *
     * @param field    a word of the queue
     * @param expected the value it must hold
     * @param desired  its new value
     * @return the value it held; a CPU compare-and-exchange for a CPU queue, else an RDMA compare-and-swap
     */
    protected final long cas(long field, long expected, long desired) {
        return cpuQueue() ? context.queueNodes().localWords().compareAndExchange(field, expected, desired)
                : thread.compareAndSwap(field, expected, desired);
    }

    private void checkNotBroken() {
        if (broken) {
            throw new LockUsageException(describe() + " handle is broken: an earlier call failed in the fabric with its"
                    + " queue node still queued");
        }
    }
}
