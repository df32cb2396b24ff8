package io.remus.alock.asymmetric;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockUsageException;
import io.remus.alock.LockWord;
import io.remus.alock.SpinBound;
import io.remus.alock.queue.QueueNode;
import io.remus.alock.queue.QueueNodePool;
import io.remus.core.ComputeThread;
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
 * never touch the NIC. Remote threads swap {@code r_tail} with an RDMA compare-and-swap loop, link
 * into the predecessor's queue node by RDMA write, and spin with CPU reads on their own queue node,
 * which the predecessor writes by RDMA. So no word is touched by both CPU and RDMA atomics, which
 * would not be atomic with each other (IBV_ATOMIC_HCA). The two cohort leaders arbitrate with
 * Peterson's algorithm: a cohort's non-empty tail is its flag, {@code victim} the turn.
 *
 * <p>A holder hands the lock to its queue successor with its remaining budget minus one; a
 * successor that receives 0 must run Peterson's step before entering, which lets a waiting leader
 * of the other cohort in. A cohort therefore holds the lock at most {@code budget} times in a row
 * while the other waits (twice that from the moment the other cohort's leader enqueued, Peterson
 * allowing one bypass).
 *
 * <p>Progress: starvation-free (with budgets; FIFO within a cohort). In remote-only mode every
 * thread, home-node ones too, takes the remote path through loopback: the same algorithm with an
 * always empty local cohort, for comparison.
 */
public final class ALock implements Lock {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final LockContext context;
    private final ComputeThread thread;
    private final long word;
    private final boolean local;
    private final MemorySegment localWord;
    private final long cohortBudget;
    private final SpinBound spin;
    private long node;
    private long budget;
    private boolean broken;

    /**
     * @param context    the thread's lock context (its node must be a memory node)
     * @param word       a zeroed {@link LockWord}
     * @param remoteOnly whether home-node threads take the remote path too
     */
    public ALock(LockContext context, long word, boolean remoteOnly) {
        this.context = context;
        this.thread = context.thread();
        this.word = LockWord.checkAligned(word);
        this.local = !remoteOnly && RemotePtr.node(word) == thread.nodeId();
        this.localWord = local ? thread.localSegment(word, LockWord.SIZE) : null;
        this.cohortBudget = local ? context.options().localBudget() : context.options().remoteBudget();
        this.spin = new SpinBound(context.options().acquireTimeout());
    }

    @Override
    public long word() {
        return word;
    }

    /** @return whether this handle takes the local (CPU-only) path */
    public boolean isLocal() {
        return local;
    }

    @Override
    public void lock() {
        context.checkOpen();
        checkNotBroken();
        if (node != 0) {
            throw new LockUsageException("ALock " + RemotePtr.toString(word) + " is already held by this handle");
        }
        QueueNodePool pool = context.queueNodes();
        long me = pool.take();
        node = me;
        try {
            budget = local ? lockLocal(me) : lockRemote(me);
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        }
    }

    @Override
    public void unlock() {
        context.checkOpen();
        checkNotBroken();
        long me = node;
        if (me == 0) {
            throw new LockUsageException("ALock " + RemotePtr.toString(word) + " is not held by this handle");
        }
        try {
            if (local) {
                unlockLocal(me);
            } else {
                unlockRemote(me);
            }
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        }
        node = 0;
        context.queueNodes().give(me);
    }

    @Override
    public boolean isHeld() {
        return node != 0 && !broken;
    }

    private void checkNotBroken() {
        if (broken) {
            throw new LockUsageException("ALock handle on " + RemotePtr.toString(word)
                    + " is broken: an earlier wait failed with its queue node still queued");
        }
    }

    private long lockLocal(long me) {
        MemorySegment mine = thread.localSegment(me, QueueNode.SIZE);
        WORD.setVolatile(mine, QueueNode.BUDGET, QueueNode.WAITING);
        WORD.setVolatile(mine, QueueNode.NEXT, 0L);
        long predecessor = (long) WORD.getAndSet(localWord, ALockWord.L_TAIL, me);
        if (predecessor != 0) {
            WORD.setVolatile(thread.localSegment(predecessor, QueueNode.SIZE), QueueNode.NEXT, me);
            spin.start();
            long received;
            while ((received = (long) WORD.getVolatile(mine, QueueNode.BUDGET)) == QueueNode.WAITING) {
                spin.pause("local hand-over of ALock " + RemotePtr.toString(word));
            }
            if (received > 0) {
                return received;
            }
        }
        WORD.setVolatile(localWord, ALockWord.VICTIM, ALockWord.LOCAL);
        spin.start();
        while ((long) WORD.getVolatile(localWord, ALockWord.R_TAIL) != 0
                && (long) WORD.getVolatile(localWord, ALockWord.VICTIM) == ALockWord.LOCAL) {
            spin.pause("remote cohort to yield ALock " + RemotePtr.toString(word));
        }
        return cohortBudget;
    }

    private void unlockLocal(long me) {
        MemorySegment mine = thread.localSegment(me, QueueNode.SIZE);
        long next = (long) WORD.getVolatile(mine, QueueNode.NEXT);
        if (next == 0) {
            if (WORD.compareAndSet(localWord, ALockWord.L_TAIL, me, 0L)) {
                return;
            }
            spin.start();
            while ((next = (long) WORD.getVolatile(mine, QueueNode.NEXT)) == 0) {
                spin.pause("local successor linking into ALock " + RemotePtr.toString(word));
            }
        }
        WORD.setVolatile(thread.localSegment(next, QueueNode.SIZE), QueueNode.BUDGET, budget - 1);
    }

    private long lockRemote(long me) {
        thread.writeLocal(RemotePtr.offset(me, QueueNode.BUDGET), QueueNode.WAITING);
        thread.writeLocal(RemotePtr.offset(me, QueueNode.NEXT), 0);
        long tail = RemotePtr.offset(word, ALockWord.R_TAIL);
        long seen = thread.read(tail);
        long predecessor;
        while ((predecessor = thread.compareAndSwap(tail, seen, me)) != seen) {
            seen = predecessor;
        }
        if (predecessor != 0) {
            thread.write(RemotePtr.offset(predecessor, QueueNode.NEXT), me);
            long budgetField = RemotePtr.offset(me, QueueNode.BUDGET);
            spin.start();
            long received;
            while ((received = thread.read(budgetField)) == QueueNode.WAITING) {
                spin.pause("remote hand-over of ALock " + RemotePtr.toString(word));
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
            spin.pause("local cohort to yield ALock " + RemotePtr.toString(word));
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
                spin.pause("remote successor linking into ALock " + RemotePtr.toString(word));
            }
        }
        thread.write(RemotePtr.offset(next, QueueNode.BUDGET), budget - 1);
    }
}
