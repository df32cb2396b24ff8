package io.remus.core.memory;

/**
 * The 8-byte header in front of every block that {@link io.remus.core.RemoteAllocator} hands out: the block's
 * size class, its state and its incarnation, with a check over all three and the block's own
 * address.
 *
 * <pre>
 *  63                            32 31                     8 7          2 1     0
 * +--------------------------------+------------------------+------------+-------+
 * |        incarnation (32)        |       check (24)       | class (6)  | state |
 * +--------------------------------+------------------------+------------+-------+
 *  state: 01 allocated, 10 free (00 and 11 are never written, so zeroed memory is no header)
 * </pre>
 *
 * <p>A block {@code p} of class {@code c} occupies {@code [p - 8, p + SizeClasses.size(c))}; its
 * header is the word at {@code p - 8}. The incarnation is 0 when the block is first carved from
 * its segment and grows by one on every free, every reuse, and every push onto a pool as a batch's
 * first block ({@link io.remus.core.FreeBlockPool}, whose head tag it is), so a reader that remembers it can tell
 * that a block was freed or reused since. The check is 24 bits of a hash of the block's
 * pointer (node included) and the other 40 bits: a word that is not the header written for this
 * very block (zeroed memory, user data inside another block, a header copied from elsewhere) passes
 * it with probability 2<sup>-24</sup> at most, and never when it is zero.
 *
 * <p>The header changes only by RDMA compare-and-swap: from 0 to allocated when the block is carved;
 * from allocated to free (incarnation + 1) when it is freed, so that of two racing frees of one block,
 * which both expect the same allocated word, exactly one succeeds; from free to allocated (incarnation
 * + 1) when the allocator that holds it free hands it out again; and from free to free (incarnation + 1)
 * when that allocator pushes it onto a pool as a batch's first block. Never by a WRITE: a NIC's atomics
 * are atomic only among themselves, and the losing free of two racing ones may still be in flight when
 * the winner reuses or pushes the block, its failed compare-and-swap storing back the word it read (as a
 * NIC may, and the simulator's does); a WRITE could be lost to that store, another compare-and-swap is
 * ordered with it. A reader sees the old word, the new one, or (a torn READ) a word that fails the check.
 * In the pool a block's first payload word is the pool's link ({@link io.remus.core.FreeBlockPool}), which is
 * why the smallest class is one word.
 */
public final class BlockHeader {
    /** Bytes of the header in front of each block. */
    public static final int SIZE = 8;
    /** State of a block in use. */
    public static final int ALLOCATED = 1;
    /** State of a freed block. */
    public static final int FREE = 2;

    private static final int STATE_BITS = 2;
    private static final int CLASS_BITS = 6;
    private static final int CHECK_SHIFT = STATE_BITS + CLASS_BITS;
    private static final int CHECK_BITS = 24;
    private static final long CHECK_MASK = (1L << CHECK_BITS) - 1;

    private BlockHeader() {
    }

    /**
     * Locates the header of a block.
     *
     * @param block a block pointer
     * @return the pointer to its header
     */
    public static long address(long block) {
        return RemotePtr.offset(block, -SIZE);
    }

    /**
     * The header word of {@code block} in a given state.
     *
     * @param block       the block pointer (not its header's)
     * @param state       {@link #ALLOCATED} or {@link #FREE}
     * @param sizeClass   its size class, below {@link SizeClasses#COUNT}
     * @param incarnation its incarnation
     * @return the header word
     */
    public static long encode(long block, int state, int sizeClass, int incarnation) {
        long low = (state & 3) | ((long) sizeClass << STATE_BITS);
        long unchecked = ((long) incarnation << 32) | low;
        return unchecked | (check(block, unchecked) << CHECK_SHIFT);
    }

    /**
     * Checks a header word against its block.
     *
     * @param block a block pointer
     * @param word  the word found at its header
     * @return whether {@code word} is a header this allocator wrote for {@code block} (either state)
     */
    public static boolean isHeaderOf(long block, long word) {
        int state = state(word);
        if (state != ALLOCATED && state != FREE) {
            return false;
        }
        if (sizeClass(word) >= SizeClasses.COUNT) {
            return false;
        }
        long unchecked = word & ~(CHECK_MASK << CHECK_SHIFT);
        return ((word >>> CHECK_SHIFT) & CHECK_MASK) == check(block, unchecked);
    }

    /**
     * Decodes the state of a header word.
     *
     * @param word a header word
     * @return its state, {@link #ALLOCATED} or {@link #FREE} in a valid header
     */
    public static int state(long word) {
        return (int) (word & 3);
    }

    /**
     * Decodes the size class of a header word.
     *
     * @param word a header word
     * @return its size class
     */
    public static int sizeClass(long word) {
        return (int) ((word >>> STATE_BITS) & ((1 << CLASS_BITS) - 1));
    }

    /**
     * Decodes the incarnation of a header word.
     *
     * @param word a header word
     * @return its incarnation
     */
    public static int incarnation(long word) {
        return (int) (word >>> 32);
    }

    /**
     * Describes a header word.
     *
     * @param word a header word
     * @return it in words, for messages
     */
    public static String describe(long word) {
        return "0x" + Long.toHexString(word) + " (" + (state(word) == ALLOCATED ? "allocated" : state(word) == FREE ? "free" : "state " + state(word))
                + ", class " + sizeClass(word) + ", incarnation " + Integer.toUnsignedString(incarnation(word)) + ")";
    }

    private static long check(long block, long unchecked) {
        long h = block * 0x9E3779B97F4A7C15L ^ unchecked;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h & CHECK_MASK;
    }
}
