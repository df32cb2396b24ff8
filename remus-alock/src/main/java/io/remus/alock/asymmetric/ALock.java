package io.remus.alock.asymmetric;

import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.queue.ParkedWaiters;
import io.remus.alock.queue.QueueLock;
import io.remus.alock.queue.QueueNode;
import io.remus.core.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * ALock, the asymmetric lock for RDMA (Baran, Nelson-Slivon, Tseng, Palmieri, "ALock: Asymmetric
 * Lock Primitive for RDMA Systems", SPAA 2024; algorithm and proof in Nelson-Slivon, Tseng,
 * Palmieri, "Asymmetric Mutual Exclusion for RDMA", arXiv 2208.09540).
 *
 * <p>Threads on the lock's home node form the local cohort, all others the remote cohort; each
 * cohort queues in its own MCS queue ({@link ALockWord}). Local threads use CPU atomics only: they
 * swap {@code l_tail}, link and hand over through CPU stores into queue nodes on the home node, and
 * never touch the NIC. Remote threads swap {@code r_tail} with an RDMA compare-and-swap loop (its
 * first attempt expects an empty queue), link into the predecessor's queue node, and spin with CPU
 * reads on their own queue node, where the predecessor hands over. Both stores into another node's
 * queue node are RDMA compare-and-swaps, where the paper has RDMA writes: Soft-RoCE stores a WRITE's
 * 8 bytes in pieces, and the CPU polling the word could act on half of it ({@link QueueLock#link}). So no word is
 * touched by both CPU and RDMA atomics, which would not be atomic with each other (IBV_ATOMIC_HCA). The two cohort leaders arbitrate with
 * Peterson's algorithm: a cohort's non-empty tail is its flag, {@code victim} the turn.
 *
 * <p>A holder hands the lock to its queue successor with its remaining budget minus one; a
 * successor that receives 0 must run Peterson's step before entering, which lets a waiting leader
 * of the other cohort in. A cohort therefore holds the lock at most {@code budget} times in a row
 * while the other waits (twice that from the moment the other cohort's leader enqueued, Peterson
 * allowing one bypass).
 *
 * <p>A local-cohort waiter spins on its queue node, yielding the processor every 64th pause. Opened with
 * {@code localWaitersPark}, it parks after {@value #SPINS_BEFORE_PARKING} pauses until its predecessor, which
 * hands over by CPU store, unparks it ({@link ParkedWaiters}), so that waiters that outnumber the cores leave
 * them to the holder; on Soft-RoCE in an emulated guest that measured no faster than spinning
 * (docs/PERFORMANCE.md, "Locks"), so spinning is the default. Remote waiters and the cohort leaders'
 * arbitration always spin, since their wakers store through the NIC.
 *
 * <p>Progress: starvation-free (with budgets; FIFO within a cohort). In remote-only mode every
 * thread, home-node ones too, takes the remote path through loopback: the same algorithm with an
 * always empty local cohort, for comparison.
 */
public final class ALock extends QueueLock {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    /**
     * How many pauses a local-cohort waiter spins on its queue node (yielding every 64th) before it parks
     * until its predecessor's hand-over unparks it.
     */
    public static final int SPINS_BEFORE_PARKING = 1024;

    private final boolean local;
    private final boolean localWaitersPark;
    private final MemorySegment localWord;
    private final long cohortBudget;
    private long budget;

    /**
     * An ALock whose local-cohort waiters spin (yielding every 64th pause) for as long as they wait.
     *
     * @param context    the thread's lock context (its node must be a memory node)
     * @param word       a zeroed {@link LockWord}
     * @param remoteOnly whether home-node threads take the remote path too
     */
    public ALock(LockContext context, long word, boolean remoteOnly) {
        this(context, word, remoteOnly, false);
    }

    /**
     * An ALock whose local-cohort waiters spin, or park after a while.
     *
     * @param context          the thread's lock context (its node must be a memory node)
     * @param word             a zeroed {@link LockWord}
     * @param remoteOnly       whether home-node threads take the remote path too
     * @param localWaitersPark whether a local-cohort waiter parks after {@value #SPINS_BEFORE_PARKING} pauses
     *                         (else it spins, yielding every 64th pause, for as long as it waits)
     */
    public ALock(LockContext context, long word, boolean remoteOnly, boolean localWaitersPark) {
        super(context, word, "ALock");
        this.localWaitersPark = localWaitersPark;
        this.local = !remoteOnly && RemotePtr.node(word) == thread.nodeId();
        this.localWord = local ? thread.localSegment(word, LockWord.SIZE) : null;
        this.cohortBudget = local ? context.options().localBudget() : context.options().remoteBudget();
    }

    /** {@return whether this handle takes the local (CPU-only) path} */
    public boolean isLocal() {
        return local;
    }

    @Override
    protected void acquire(long me) {
        budget = local ? lockLocal(me) : lockRemote(me);
    }

    @Override
    protected void release(long me) {
        if (local) {
            unlockLocal(me);
        } else {
            unlockRemote(me);
        }
    }

    private long lockLocal(long me) {
        MemorySegment mine = context.queueNodes().view(me);
        WORD.setVolatile(mine, QueueNode.BUDGET, QueueNode.WAITING);
        WORD.setVolatile(mine, QueueNode.NEXT, 0L);
        long token = localWaitersPark ? context.parkToken() : 0;
        long predecessor = (long) WORD.getAndSet(localWord, ALockWord.L_TAIL, me);
        if (predecessor != 0) {
            thread.writeLocal(RemotePtr.offset(predecessor, QueueNode.NEXT), me);
            spin.start();
            long received;
            while ((received = (long) WORD.getVolatile(mine, QueueNode.BUDGET)) == QueueNode.WAITING) {
                if (!localWaitersPark || spin.pauses() < SPINS_BEFORE_PARKING) {
                    spin.pause("local hand-over of", describe());
                    continue;
                }
                // Dekker with unlockLocal: it stores the budget, then reads PARKED; this stores PARKED, then
                // reads the budget, so at least one of the two sees the other's store (volatile order).
                WORD.setVolatile(mine, QueueNode.PARKED, token);
                if ((long) WORD.getVolatile(mine, QueueNode.BUDGET) == QueueNode.WAITING) {
                    spin.park("local hand-over of", describe());
                }
                WORD.setVolatile(mine, QueueNode.PARKED, 0L);
            }
            if (received > 0) {
                return received;
            }
        }
        WORD.setVolatile(localWord, ALockWord.VICTIM, ALockWord.LOCAL);
        spin.start();
        while ((long) WORD.getVolatile(localWord, ALockWord.R_TAIL) != 0
                && (long) WORD.getVolatile(localWord, ALockWord.VICTIM) == ALockWord.LOCAL) {
            spin.pause("remote cohort to yield", describe());
        }
        return cohortBudget;
    }

    private void unlockLocal(long me) {
        MemorySegment mine = context.queueNodes().view(me);
        long next = (long) WORD.getVolatile(mine, QueueNode.NEXT);
        if (next == 0) {
            if (WORD.compareAndSet(localWord, ALockWord.L_TAIL, me, 0L)) {
                return;
            }
            spin.start();
            while ((next = (long) WORD.getVolatile(mine, QueueNode.NEXT)) == 0) {
                spin.pause("local successor linking into", describe());
            }
        }
        thread.writeLocal(RemotePtr.offset(next, QueueNode.BUDGET), budget - 1);
        long parked = thread.readLocal(RemotePtr.offset(next, QueueNode.PARKED));
        if (parked != 0) {
            ParkedWaiters.unpark(parked);
        }
    }

    private long lockRemote(long me) {
        thread.writeLocal(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
        thread.writeLocal(RemotePtr.offset(me, QueueNode.NEXT), 0);
        long tail = RemotePtr.offset(word, ALockWord.R_TAIL);
        long seen = 0;
        long predecessor;
        spin.start();
        while ((predecessor = thread.compareAndSwap(tail, seen, me)) != seen) {
            seen = predecessor;
            spin.pause("joining the remote queue of", describe());
        }
        if (predecessor != 0) {
            link(predecessor, me);
            long budgetField = RemotePtr.offset(me, QueueNode.BUDGET);
            spin.start();
            long received;
            while ((received = thread.read(budgetField)) == QueueNode.WAITING) {
                spin.pause("remote hand-over of", describe());
            }
            if (received > 0) {
                return received;
            }
        }
        long victim = RemotePtr.offset(word, ALockWord.VICTIM);
        long localTail = RemotePtr.offset(word, ALockWord.L_TAIL);
        thread.write(victim, ALockWord.REMOTE);
        spin.start();
        while (thread.read(localTail) != 0 && thread.read(victim) == ALockWord.REMOTE) {
            spin.pause("local cohort to yield", describe());
        }
        return cohortBudget;
    }

    private void unlockRemote(long me) {
        long nextField = RemotePtr.offset(me, QueueNode.NEXT);
        long next = thread.read(nextField);
        if (next == 0) {
            if (thread.compareAndSwap(RemotePtr.offset(word, ALockWord.R_TAIL), me, 0) == me) {
                return;
            }
            spin.start();
            while ((next = thread.read(nextField)) == 0) {
                spin.pause("remote successor linking into", describe());
            }
        }
        handOver(next, budget - 1);
    }
}
