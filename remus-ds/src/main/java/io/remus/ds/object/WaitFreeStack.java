package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Reclaimer;

import java.util.Arrays;

/**
 * A bounded LIFO stack of 64-bit words, linearizable and wait-free: {@link WaitFreeObject}'s universal
 * construction over a sequential array stack.
 *
 * <pre>
 *  sequential state (8 + 8m bytes, m the element capacity):
 *  +0    size   element count, 0..m
 *  +8    items[0..m-1], items[size - 1] the top
 * </pre>
 *
 * <p><b>Progress and cost:</b> {@link #push} and {@link #pop} are one {@link WaitFreeObject#apply} each:
 * wait-free, at most {@code 1 + 3 + 2 = 6} round trips and 16 RDMA operations (2 compare-and-swaps of
 * the state pointer, one of the announcement), at most one allocation of a state block of
 * {@code 16 + 24c + 8m} bytes, whatever the other {@code n <= c} threads do ({@code c} the handle
 * capacity); see {@link WaitFreeObject} for the formula in bytes. {@link #contents} is 2 READs.
 *
 * <p><b>Linearizable</b> with respect to a sequential bounded stack: a push on a full stack and a pop on
 * an empty one take effect without changing it and report so.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class WaitFreeStack extends WaitFreeWordContainer implements AutoCloseable {
    /** The operation code of a push of the argument. */
    public static final long PUSH = PUT;
    /** The operation code of a pop; its response's value is the element. */
    public static final long POP = TAKE;
    /** Words of the state in front of the items: size. */
    private static final int HEADER_WORDS = 1;

    private WaitFreeStack(WaitFreeObject<long[]> object) {
        super(object);
    }

    /**
     * Allocates an empty stack on memory node {@code nodeId} (see {@link WaitFreeObject#create}).
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param handles   the most handles ever attached to the stack, 1 or more (the construction's capacity
     *                  {@code c}): each takes an announce slot for good, the creator's own included and a closed
     *                  one too, so a stack that {@code n} threads attach to beside its creator needs {@code n + 1}
     * @param elements  the most elements the stack holds ({@code m}), 1 or more
     * @return the creator's handle
     * @throws BadArgumentException when the sizes do not fit a block or the thread's buffer
     */
    public static WaitFreeStack create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int handles, int elements) {
        return create(thread, reclaimer, nodeId, handles, elements, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeStack create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int handles, int elements,
                                WaitFreeObject.Helping helping) {
        return new WaitFreeStack(create(thread, reclaimer, nodeId, handles, elements, WaitFreeStack::sequential,
                StructureKind.WAIT_FREE_STACK, helping));
    }

    /**
     * A handle on a stack another thread created, claiming the next announce slot: one READ (the root block's
     * header, the identity word and the root's first 32 bytes) and one fetch-and-add.
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException         when the pointer does not lead to a stack this thread can serve
     * @throws WrongStructureException      when no wait-free stack is there (another kind of structure, a
     *                                      {@link WaitFreeQueue} or a plain {@link WaitFreeObject} included, or none)
     * @throws ClosedObjectException        when the stack there was destroyed
     * @throws AllocationExhaustedException when every announce slot is claimed: the {@code handles} given to
     *                                      {@link #create(ComputeThread, Reclaimer, int, int, int)} were all
     *                                      attached (the message names the value and the handles open)
     */
    public static WaitFreeStack attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        return attach(thread, reclaimer, ptr, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeStack attach(ComputeThread thread, Reclaimer reclaimer, long ptr, WaitFreeObject.Helping helping) {
        return new WaitFreeStack(attach(thread, reclaimer, ptr, StructureKind.WAIT_FREE_STACK, HEADER_WORDS, "stack",
                Array::new, helping));
    }

    /**
     * The sequential stack this one is linearizable with respect to, with the operation codes and
     * statuses above: what {@link LockedObject} protects with a lock for the comparison with this class.
     *
     * @param elements the most elements it holds, 1 or more
     * @return the sequential object
     * @throws BadArgumentException when the size does not fit a block
     */
    public static SequentialObject<long[]> sequential(int elements) {
        return new Array(checkElements(HEADER_WORDS, elements));
    }

    /**
     * Pushes {@code v} unless the stack is full. Wait-free (see the class for the bound).
     *
     * @param v the element
     * @return whether it was pushed (false: the stack was full)
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in its READ of the
     *                               state pointer, by another)
     */
    public boolean push(long v) {
        return put(v);
    }

    /**
     * Removes the top element unless the stack is empty; {@link #value()} then returns it. Wait-free (see
     * the class for the bound).
     *
     * @return whether an element was removed (false: the stack was empty)
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in its READ of the
     *                               state pointer, by another)
     */
    public boolean pop() {
        return take();
    }

    /**
     * The elements, bottom first, as of one moment (2 READs; see {@link WaitFreeObject#read}).
     *
     * @return a new array
     * @throws ClosedObjectException when the stack was destroyed
     */
    public long[] contents() {
        long[] s = state();
        return Arrays.copyOfRange(s, 1, 1 + (int) s[0]);
    }

    /** The sequential array stack: state words {size, items...}, items[size - 1] the top. */
    private static final class Array extends Words {
        Array(int elements) {
            super(HEADER_WORDS, elements);
        }

        @Override
        long size(long[] state) {
            return state[0];
        }

        @Override
        void put(long[] next, long v) {
            long size = next[0];
            next[1 + (int) size] = v;
            next[0] = size + 1;
        }

        @Override
        long take(long[] next) {
            long size = next[0];
            long v = next[(int) size];
            next[(int) size] = 0;
            next[0] = size - 1;
            return v;
        }
    }
}
