package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The shared word of every lock kind: {@value #SIZE} bytes, {@value #SIZE}-byte aligned, all zero
 * when the lock is free, on the lock's home node.
 */
public final class LockWord {
    /** Size and alignment of a lock word. */
    public static final int SIZE = 64;

    private LockWord() {
    }

    /**
     * Allocates and zeroes a lock word on {@code node}, before any thread uses it.
     *
     * @param thread    the allocating thread
     * @param allocator its allocator
     * @param node      the home node, a memory node
     * @return the word
     */
    public static long allocate(ComputeThread thread, RemoteAllocator allocator, int node) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(allocator, "allocator");
        long block = allocator.allocate(2 * SIZE, node);
        long word = alignUp(block);
        thread.write(word, MemorySegment.ofArray(new byte[SIZE]));
        return word;
    }

    /**
     * Aligns a pointer up to a lock word's alignment.
     *
     * @param ptr a pointer
     * @return the first {@value #SIZE}-byte aligned pointer at or after it
     */
    public static long alignUp(long ptr) {
        long misalignment = RemotePtr.address(ptr) & (SIZE - 1);
        return misalignment == 0 ? ptr : RemotePtr.offset(ptr, SIZE - misalignment);
    }

    /**
     * Checks that a pointer can be a lock word.
     *
     * @param word a pointer
     * @return it
     * @throws io.remus.core.error.BadArgumentException when it is not {@value #SIZE}-byte aligned
     */
    public static long checkAligned(long word) {
        if ((RemotePtr.address(word) & (SIZE - 1)) != 0 || RemotePtr.isNull(word)) {
            throw new io.remus.core.error.BadArgumentException("lock word " + RemotePtr.toString(word)
                    + " must be non-null and " + SIZE + "-byte aligned");
        }
        return word;
    }
}
