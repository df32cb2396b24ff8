package io.remus.core.memory;

import io.remus.core.error.BadArgumentException;

/**
 * Allocation size classes: powers of two from {@value #MIN} bytes to {@value #MAX} bytes. A request
 * is served by the smallest class that holds it; blocks are 8-byte aligned.
 */
public final class SizeClasses {
    /** Smallest class, one word. */
    public static final long MIN = 8;
    /** Largest class, 1 MiB. */
    public static final long MAX = 1 << 20;
    /** Number of classes. */
    public static final int COUNT = Long.numberOfTrailingZeros(MAX) - Long.numberOfTrailingZeros(MIN) + 1;

    private SizeClasses() {
    }

    /**
     * Finds the size class of a request.
     *
     * @param size requested bytes
     * @return the index of the smallest class that holds them
     * @throws BadArgumentException when size is not 1..{@value #MAX}
     */
    public static int classOf(long size) {
        if (size <= 0 || size > MAX) {
            throw new BadArgumentException("allocation size must be 1.." + MAX + " bytes, got " + size);
        }
        long rounded = Math.max(MIN, Long.highestOneBit(size - 1) << 1);
        return Long.numberOfTrailingZeros(rounded) - Long.numberOfTrailingZeros(MIN);
    }

    /**
     * Looks up the block size of a class.
     *
     * @param sizeClass a class index below {@link #COUNT}
     * @return its block size in bytes
     */
    public static long size(int sizeClass) {
        return MIN << sizeClass;
    }
}
