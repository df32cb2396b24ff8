package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * What {@link WaitFreeQueue} and {@link WaitFreeStack} share: a handle on a {@link WaitFreeObject} over a bounded
 * sequential container of 64-bit words ({@link Words}), whose two operations put a word (code 1) and take one (code 2).
 * Each subclass names the operations and orders the elements; the handle, the status words and the state's layout
 * (a few header words, then the element slots) are the same.
 */
abstract class WaitFreeWordContainer implements AutoCloseable {
    /** The operation code of a put of the argument. */
    static final long PUT = 1;
    /** The operation code of a take; its response's value is the element. */
    static final long TAKE = 2;
    /** The status of an operation that took effect. */
    public static final long OK = 0;
    /** The status of a put on a full queue or stack (nothing changed). */
    public static final long FULL = 1;
    /** The status of a take from an empty queue or stack (nothing changed). */
    public static final long EMPTY = 2;
    /** The status of an operation code the container does not know (nothing changed). */
    static final long UNKNOWN = 3;

    private final WaitFreeObject<long[]> object;
    private final int elements;
    private long value;

    WaitFreeWordContainer(WaitFreeObject<long[]> object) {
        this.object = object;
        this.elements = ((Words) object.sequential()).elements();
    }

    /**
     * The element capacity, checked against the largest block.
     *
     * @param headerWords the state's words in front of the elements
     * @param elements    the capacity asked for
     * @return {@code elements}
     * @throws BadArgumentException when the state would not fit a block
     */
    static int checkElements(int headerWords, int elements) {
        if (elements < 1 || 8L * headerWords + 8L * elements > SizeClasses.MAX) {
            throw new BadArgumentException("element capacity must be 1.." + (SizeClasses.MAX - 8 * headerWords) / 8
                    + ", got " + elements);
        }
        return elements;
    }

    /**
     * {@link WaitFreeObject#create} for a container of {@code kind} holding {@code elements}, {@code sequential} its
     * sequential object of a given capacity, after checking that the thread and the reclaimer are given.
     */
    static WaitFreeObject<long[]> create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int handles,
                                         int elements, IntFunction<SequentialObject<long[]>> sequential,
                                         StructureKind kind, WaitFreeObject.Helping helping) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        return WaitFreeObject.create(thread, reclaimer, nodeId, handles, sequential.apply(elements), kind, helping);
    }

    /**
     * {@link WaitFreeObject#attach} (after checking that the thread and the reclaimer are given) for a container of {@code kind} whose state has {@code headerWords} words in front
     * of its elements, and {@code words} its sequential object of a given capacity; a state whose size fits no such
     * container is a {@link BadArgumentException} that calls the container {@code noun}.
     */
    static WaitFreeObject<long[]> attach(ComputeThread thread, Reclaimer reclaimer, long ptr, StructureKind kind,
                                         int headerWords, String noun, IntFunction<Words> words,
                                         WaitFreeObject.Helping helping) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        return WaitFreeObject.attach(thread, reclaimer, ptr, kind, bytes -> {
            if (bytes < 8 * (headerWords + 1) || bytes % 8 != 0) {
                throw new BadArgumentException("a " + bytes + "-byte state at " + RemotePtr.toString(ptr) + " is no "
                        + noun + " of words");
            }
            return words.apply(bytes / 8 - headerWords);
        }, helping);
    }

    /**
     * {@return the root, to hand to {@link WaitFreeQueue#attach(ComputeThread, Reclaimer, long)} for a queue,
     * {@link WaitFreeStack#attach(ComputeThread, Reclaimer, long)} for a stack}
     */
    public long ptr() {
        return object.ptr();
    }

    /** {@return the most elements the queue or stack holds} */
    public int elements() {
        return elements;
    }

    /** {@return the construction's handle, for its counters and {@link WaitFreeObject#applied}} */
    public WaitFreeObject<?> object() {
        return object;
    }

    /**
     * {@return the element the last successful take ({@link WaitFreeQueue#dequeue()}, {@link WaitFreeStack#pop()})
     * removed}
     */
    public long value() {
        return value;
    }

    /** Closes this handle (see {@link WaitFreeObject#close}); idempotent. */
    @Override
    public void close() {
        object.close();
    }

    /**
     * Destroys the queue or stack and closes this handle (see {@link WaitFreeObject#destroy}): its memory is freed
     * when the last handle is closed.
     *
     * @throws ClosedObjectException when this handle is closed, or another handle destroyed it first
     */
    public void destroy() {
        object.destroy();
    }

    /** One {@link WaitFreeObject#apply} of a put: whether it took effect (false: full). */
    final boolean put(long v) {
        object.apply(PUT, v);
        return object.status() == OK;
    }

    /** One {@link WaitFreeObject#apply} of a take: whether it took effect (false: empty); {@link #value()} is the element. */
    final boolean take() {
        long v = object.apply(TAKE, 0);
        if (object.status() != OK) {
            return false;
        }
        value = v;
        return true;
    }

    /** The state as of one moment (2 READs; see {@link WaitFreeObject#read}). */
    final long[] state() {
        return object.read();
    }

    /**
     * The sequential container: state words {header..., slots...}, copied on every change. A put on a full one and
     * a take from an empty one report so and change nothing.
     */
    abstract static class Words implements SequentialObject<long[]> {
        private final int headerWords;
        private final int elements;

        Words(int headerWords, int elements) {
            this.headerWords = headerWords;
            this.elements = elements;
        }

        /** {@return the most elements it holds} */
        final int elements() {
            return elements;
        }

        /** {@return the element count of {@code state}} */
        abstract long size(long[] state);

        /** Puts {@code v} into {@code next}, a copy of a state with room. */
        abstract void put(long[] next, long v);

        /** Takes the element to take from {@code next}, a copy of a state with one, and returns it. */
        abstract long take(long[] next);

        @Override
        public final int stateBytes() {
            return 8 * (headerWords + elements);
        }

        @Override
        public final long[] initialState() {
            return new long[headerWords + elements];
        }

        @Override
        public final void store(long[] state, MemorySegment to) {
            MemorySegment.copy(state, 0, to, ValueLayout.JAVA_LONG_UNALIGNED, 0, state.length);
        }

        @Override
        public final long[] load(MemorySegment from) {
            return from.toArray(ValueLayout.JAVA_LONG_UNALIGNED);
        }

        @Override
        public final Step<long[]> apply(long[] state, long operation, long argument) {
            long size = size(state);
            if (operation == PUT) {
                if (size == elements) {
                    return new Step<>(state, FULL, 0);
                }
                long[] next = Arrays.copyOf(state, state.length);
                put(next, argument);
                return new Step<>(next, OK, 0);
            }
            if (operation == TAKE) {
                if (size == 0) {
                    return new Step<>(state, EMPTY, 0);
                }
                long[] next = Arrays.copyOf(state, state.length);
                return new Step<>(next, OK, take(next));
            }
            return new Step<>(state, UNKNOWN, 0);
        }
    }
}
