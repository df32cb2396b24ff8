package io.remus.alock.asymmetric;

import io.remus.alock.LockContext;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockWord;
import io.remus.alock.mcs.QueueLock;
import io.remus.alock.queue.ParkedWaiters;
import io.remus.alock.queue.QueueNode;
import io.remus.core.memory.RemotePtr;

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
 * swap {@code l_tail}, link and hand over through CPU compare-and-swaps on queue nodes on the home node,
 * and never touch the NIC. Remote threads swap {@code r_tail} with an RDMA compare-and-swap loop (its
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
 * (docs/locks/README.md, "Soft-RoCE with work inside the lock"), so spinning is the default. Remote waiters and the cohort leaders'
 * arbitration always spin, since their wakers store through the NIC.
 *
 * <p>A waiter that times out leaves its cohort's queue, the handle and the word staying usable, and a release
 * never waits for a successor to link ({@link QueueLock} describes the protocol): a waiter that gives up while
 * awaiting its hand-over swaps its own node's budget to abandoned (a cohort's next passer goes past it); a
 * cohort leader that gives up while it arbitrates passes the lock on with budget 0, so that the next waiter
 * arbitrates in its place. Per call of a remote thread: an uncontended lock is one compare-and-swap of
 * {@code r_tail}, one WRITE of {@code victim} and one READ of {@code l_tail}; a waiter adds the link (one
 * compare-and-swap) and a local spin; a release is one local READ and one compare-and-swap (two when its
 * successor swapped the tail but has not linked yet), plus one READ and two compare-and-swaps for each abandoned
 * node it passes. A local thread does the same with CPU atomics.
 *
 * <p>Progress: starvation-free (with budgets; FIFO within a cohort) among the waiters that do not time out;
 * a release never waits (its steps grow only with the abandoned nodes it passes). In remote-only mode every
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
    protected boolean cpuQueue() {
        return local;
    }

    @Override
    protected long tailWord() {
        return RemotePtr.offset(word, local ? ALockWord.L_TAIL : ALockWord.R_TAIL);
    }

    @Override
    protected void acquire(long me) {
        budget = local ? lockLocal(me) : lockRemote(me);
    }

    @Override
    protected boolean release(long me) {
        return passOn(me, budget - 1);
    }

    private long lockLocal(long me) {
        MemorySegment mine = context.queueNodes().view(me);
        WORD.setVolatile(mine, QueueNode.BUDGET, QueueNode.WAITING);
        WORD.setVolatile(mine, QueueNode.NEXT, 0L);
        long predecessor = (long) WORD.getAndSet(localWord, ALockWord.L_TAIL, me);
        if (predecessor != 0 && link(predecessor, me)) {
            long received;
            try {
                received = awaitLocalHandOver(mine);
            } catch (LockTimeoutException e) {
                received = abandon(me);
                if (received == QueueNode.WAITING) {
                    throw e;
                }
            }
            if (received > 0) {
                return received;
            }
        }
        WORD.setVolatile(localWord, ALockWord.VICTIM, ALockWord.LOCAL);
        spin.start();
        try {
            while ((long) WORD.getVolatile(localWord, ALockWord.R_TAIL) != 0
                    && (long) WORD.getVolatile(localWord, ALockWord.VICTIM) == ALockWord.LOCAL) {
                spin.pause("remote cohort to yield", describe());
            }
        } catch (LockTimeoutException e) {
            leave(me);
            throw e;
        }
        return cohortBudget;
    }

    private long awaitLocalHandOver(MemorySegment mine) {
        long token = localWaitersPark ? context.parkToken() : 0;
        spin.start();
        long received;
        while ((received = (long) WORD.getVolatile(mine, QueueNode.BUDGET)) == QueueNode.WAITING) {
            if (!localWaitersPark || spin.pauses() < SPINS_BEFORE_PARKING) {
                spin.pause("local hand-over of", describe());
                continue;
            }
            // Dekker with passOn: it swaps the budget, then reads PARKED; this stores PARKED, then
            // reads the budget, so at least one of the two sees the other's store (volatile order).
            WORD.setVolatile(mine, QueueNode.PARKED, token);
            try {
                if ((long) WORD.getVolatile(mine, QueueNode.BUDGET) == QueueNode.WAITING) {
                    spin.park("local hand-over of", describe());
                }
            } finally {
                WORD.setVolatile(mine, QueueNode.PARKED, 0L);
            }
        }
        return received;
    }

    private long lockRemote(long me) {
        thread.writeLocal(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
        thread.writeLocal(RemotePtr.offset(me, QueueNode.NEXT), 0);
        long tail = RemotePtr.offset(word, ALockWord.R_TAIL);
        long seen = 0;
        long predecessor;
        spin.start();
        try {
            while ((predecessor = thread.compareAndSwap(tail, seen, me)) != seen) {
                seen = predecessor;
                spin.pause("joining the remote queue of", describe());
            }
        } catch (LockTimeoutException e) {
            withdraw(me);
            throw e;
        }
        if (predecessor != 0 && link(predecessor, me)) {
            long budgetField = RemotePtr.offset(me, QueueNode.BUDGET);
            long received;
            spin.start();
            try {
                while ((received = thread.read(budgetField)) == QueueNode.WAITING) {
                    spin.pause("remote hand-over of", describe());
                }
            } catch (LockTimeoutException e) {
                received = abandon(me);
                if (received == QueueNode.WAITING) {
                    throw e;
                }
            }
            if (received > 0) {
                return received;
            }
        }
        long victim = RemotePtr.offset(word, ALockWord.VICTIM);
        long localTail = RemotePtr.offset(word, ALockWord.L_TAIL);
        thread.write(victim, ALockWord.REMOTE);
        spin.start();
        try {
            while (thread.read(localTail) != 0 && thread.read(victim) == ALockWord.REMOTE) {
                spin.pause("local cohort to yield", describe());
            }
        } catch (LockTimeoutException e) {
            leave(me);
            throw e;
        }
        return cohortBudget;
    }
}
