package io.remus.ds.object;

import io.remus.core.AllocationExhaustedException;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

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
public final class WaitFreeStack implements AutoCloseable {
    /** The operation code of a push of the argument. */
    public static final long PUSH = 1;
    /** The operation code of a pop; its response's value is the element. */
    public static final long POP = 2;
    /** The status of an operation that took effect. */
    public static final long OK = 0;
    /** The status of a put on a full stack (nothing changed). */
    public static final long FULL = 1;
    /** The status of a take from an empty stack (nothing changed). */
    public static final long EMPTY = 2;
    private static final long UNKNOWN = 3;

    private final WaitFreeObject<long[]> object;
    private final int elements;
    private long value;

    private WaitFreeStack(WaitFreeObject<long[]> object, int elements) {
        this.object = object;
        this.elements = elements;
    }

    /**
     * Allocates an empty stack on memory node {@code nodeId} (see {@link WaitFreeObject#create}).
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param threads   the most handles ever attached (the construction's capacity {@code c})
     * @param elements  the most elements the stack holds ({@code m}), 1 or more
     * @return the creator's handle
     * @throws BadArgumentException when the sizes do not fit a block or the thread's buffer
     */
    public static WaitFreeStack create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int threads, int elements) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        return create(thread, reclaimer, nodeId, threads, elements, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeStack create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int threads, int elements,
                                WaitFreeObject.Helping helping) {
        return new WaitFreeStack(WaitFreeObject.create(thread, reclaimer, nodeId, threads, new Array(checkElements(elements)),
                StructureKind.WAIT_FREE_STACK, helping), elements);
    }

    private static int checkElements(int elements) {
        if (elements < 1 || 8L + 8L * elements > SizeClasses.MAX) {
            throw new BadArgumentException("element capacity must be 1.." + (SizeClasses.MAX - 8) / 8 + ", got " + elements);
        }
        return elements;
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
     * @throws AllocationExhaustedException when every announce slot is claimed
     */
    public static WaitFreeStack attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        return attach(thread, reclaimer, ptr, WaitFreeObject.Helping.SEQUENCED);
    }

    static WaitFreeStack attach(ComputeThread thread, Reclaimer reclaimer, long ptr, WaitFreeObject.Helping helping) {
        WaitFreeObject<long[]> object = WaitFreeObject.attach(thread, reclaimer, ptr, StructureKind.WAIT_FREE_STACK, bytes -> {
            if (bytes < 16 || bytes % 8 != 0) {
                throw new BadArgumentException("a " + bytes + "-byte state at " + RemotePtr.toString(ptr) + " is no stack of words");
            }
            return new Array((bytes - 8) / 8);
        }, helping);
        return new WaitFreeStack(object, ((Array) object.sequential()).elements());
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
        return new Array(checkElements(elements));
    }

    /** {@return the stack's root, to hand to {@link #attach}} */
    public long ptr() {
        return object.ptr();
    }

    /** {@return the most elements the stack holds} */
    public int elements() {
        return elements;
    }

    /** {@return the construction's handle, for its counters and {@link WaitFreeObject#applied}} */
    public WaitFreeObject<?> object() {
        return object;
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
        object.apply(PUSH, v);
        return object.status() == OK;
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
        long v = object.apply(POP, 0);
        if (object.status() != OK) {
            return false;
        }
        value = v;
        return true;
    }

    /** {@return the element the last successful {@link #pop()} removed} */
    public long value() {
        return value;
    }

    /**
     * The elements, bottom first, as of one moment (2 READs; see {@link WaitFreeObject#read}).
     *
     * @return a new array
     * @throws ClosedObjectException when the stack was destroyed
     */
    public long[] contents() {
        long[] s = object.read();
        return Arrays.copyOfRange(s, 1, 1 + (int) s[0]);
    }

    /** Closes this handle (see {@link WaitFreeObject#close}); idempotent. */
    @Override
    public void close() {
        object.close();
    }

    /**
     * Destroys the stack and closes this handle (see {@link WaitFreeObject#destroy}): its memory is freed when the
     * last handle is closed.
     *
     * @throws ClosedObjectException when this handle is closed, or another handle destroyed the stack first
     */
    public void destroy() {
        object.destroy();
    }

    /** The sequential array stack: state words {size, items...}, copied on every change. */
    private record Array(int elements) implements SequentialObject<long[]> {
        @Override
        public int stateBytes() {
            return 8 + 8 * elements;
        }

        @Override
        public long[] initialState() {
            return new long[1 + elements];
        }

        @Override
        public void store(long[] state, MemorySegment to) {
            MemorySegment.copy(state, 0, to, ValueLayout.JAVA_LONG_UNALIGNED, 0, state.length);
        }

        @Override
        public long[] load(MemorySegment from) {
            return from.toArray(ValueLayout.JAVA_LONG_UNALIGNED);
        }

        @Override
        public Step<long[]> apply(long[] state, long operation, long argument) {
            long size = state[0];
            if (operation == PUSH) {
                if (size == elements) {
                    return new Step<>(state, FULL, 0);
                }
                long[] next = Arrays.copyOf(state, state.length);
                next[1 + (int) size] = argument;
                next[0] = size + 1;
                return new Step<>(next, OK, 0);
            }
            if (operation == POP) {
                if (size == 0) {
                    return new Step<>(state, EMPTY, 0);
                }
                long[] next = Arrays.copyOf(state, state.length);
                long v = next[(int) size];
                next[(int) size] = 0;
                next[0] = size - 1;
                return new Step<>(next, OK, v);
            }
            return new Step<>(state, UNKNOWN, 0);
        }
    }
}
