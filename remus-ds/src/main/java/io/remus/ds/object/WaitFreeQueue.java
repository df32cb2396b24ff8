package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Reclaimer;

/**
 * A bounded FIFO queue of 64-bit words, linearizable and wait-free: {@link WaitFreeObject}'s universal
 * construction over a sequential ring buffer.
 *
 * <pre>
 *  sequential state (16 + 8m bytes, m the element capacity):
 *  +0    head   index of the oldest element
 *  +8    size   element count, 0..m
 *  +16   ring[0..m-1]
 * </pre>
 *
 * <p><b>Progress and cost:</b> {@link #enqueue} and {@link #dequeue} are one {@link WaitFreeObject#apply}
 * each: wait-free, at most {@code 1 + 3 + 2 = 6} round trips and 16 RDMA operations (2 compare-and-swaps
 * of the state pointer, one of the announcement), at most one allocation of a state block of
 * {@code 24 + 24c + 8m} bytes, whatever the other {@code n <= c} threads do ({@code c} the handle capacity);
 * see {@link WaitFreeObject} for the formula in bytes. {@link #contents} is 2 READs.
 *
 * <p><b>Linearizable</b> with respect to a sequential bounded FIFO queue: an enqueue on a full queue and a
 * dequeue on an empty one take effect without changing it and report so.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class WaitFreeQueue extends WaitFreeWordContainer implements AutoCloseable {
    /** The operation code of an enqueue of the argument. */
    public static final long ENQUEUE = PUT;
    /** The operation code of a dequeue; its response's value is the element. */
    public static final long DEQUEUE = TAKE;
    /** Words of the state in front of the ring: head, size. */
    private static final int HEADER_WORDS = 2;

    private WaitFreeQueue(WaitFreeObject<long[]> object) {
        super(object);
    }

    /**
     * Allocates an empty queue on memory node {@code nodeId} (see {@link WaitFreeObject#create}).
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param handles   the most handles ever attached to the queue, 1 or more (the construction's capacity
     *                  {@code c}): each takes an announce slot for good, the creator's own included and a closed
     *                  one too, so a queue that {@code n} threads attach to beside its creator needs {@code n + 1}
     * @param elements  the most elements the queue holds ({@code m}), 1 or more
     * @return the creator's handle
     * @throws BadArgumentException when the sizes do not fit a block or the thread's buffer
     */
    public static WaitFreeQueue create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int handles, int elements) {
        return create(thread, reclaimer, nodeId, handles, elements, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeQueue create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int handles, int elements,
                                WaitFreeObject.Helping helping) {
        return new WaitFreeQueue(create(thread, reclaimer, nodeId, handles, elements, WaitFreeQueue::sequential,
                StructureKind.WAIT_FREE_QUEUE, helping));
    }

    /**
     * A handle on a queue another thread created, claiming the next announce slot: one READ (the root block's
     * header, the identity word and the root's first 32 bytes) and one fetch-and-add.
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException         when the pointer does not lead to a queue this thread can serve
     * @throws WrongStructureException      when no wait-free queue is there (another kind of structure, a
     *                                      {@link WaitFreeStack} or a plain {@link WaitFreeObject} included, or none)
     * @throws ClosedObjectException        when the queue there was destroyed
     * @throws AllocationExhaustedException when every announce slot is claimed: the {@code handles} given to
     *                                      {@link #create(ComputeThread, Reclaimer, int, int, int)} were all
     *                                      attached (the message names the value and the handles open)
     */
    public static WaitFreeQueue attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        return attach(thread, reclaimer, ptr, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeQueue attach(ComputeThread thread, Reclaimer reclaimer, long ptr, WaitFreeObject.Helping helping) {
        return new WaitFreeQueue(attach(thread, reclaimer, ptr, StructureKind.WAIT_FREE_QUEUE, HEADER_WORDS, "queue",
                Ring::new, helping));
    }

    /**
     * The sequential queue this one is linearizable with respect to, with the operation codes and
     * statuses above: what {@link LockedObject} protects with a lock for the comparison with this class.
     *
     * @param elements the most elements it holds, 1 or more
     * @return the sequential object
     * @throws BadArgumentException when the size does not fit a block
     */
    public static SequentialObject<long[]> sequential(int elements) {
        return new Ring(checkElements(HEADER_WORDS, elements));
    }

    /**
     * Appends {@code v} unless the queue is full. Wait-free (see the class for the bound).
     *
     * @param v the element
     * @return whether it was appended (false: the queue was full)
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in its READ of the
     *                               state pointer, by another)
     */
    public boolean enqueue(long v) {
        return put(v);
    }

    /**
     * Removes the oldest element unless the queue is empty; {@link #value()} then returns it. Wait-free
     * (see the class for the bound).
     *
     * @return whether an element was removed (false: the queue was empty)
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in its READ of the
     *                               state pointer, by another)
     */
    public boolean dequeue() {
        return take();
    }

    /**
     * The elements, oldest first, as of one moment (2 READs; see {@link WaitFreeObject#read}).
     *
     * @return a new array
     * @throws ClosedObjectException when the queue was destroyed
     */
    public long[] contents() {
        long[] s = state();
        int elements = elements();
        long[] out = new long[(int) s[1]];
        for (int i = 0; i < out.length; i++) {
            out[i] = s[2 + (int) ((s[0] + i) % elements)];
        }
        return out;
    }

    /** The sequential ring buffer: state words {head, size, ring...}. */
    private static final class Ring extends Words {
        Ring(int elements) {
            super(HEADER_WORDS, elements);
        }

        @Override
        long size(long[] state) {
            return state[1];
        }

        @Override
        void put(long[] next, long v) {
            long size = next[1];
            next[2 + (int) ((next[0] + size) % elements())] = v;
            next[1] = size + 1;
        }

        @Override
        long take(long[] next) {
            long head = next[0];
            long v = next[2 + (int) head];
            next[2 + (int) head] = 0;
            next[0] = (head + 1) % elements();
            next[1] = next[1] - 1;
            return v;
        }
    }
}
