package io.remus.core.memory;

/**
 * Where a memory node keeps its shared words. Every segment starts with a 64-byte header holding
 * its allocation watermark; segment 0 follows it with the node's control block, one word per
 * 64-byte line so that unrelated words never share a cache line.
 *
 * <pre>
 * segment 0                                   segment i &gt; 0
 * +-------+-----------------------------+      +-------+--------------------------+
 * |   0   | watermark                   |      |   0   | watermark                |
 * |  64   | root pointer (RemotePtr)    |      |  64   | heap: blocks             |
 * | 128   | barrier word                |      +-------+--------------------------+
 * | 192   | reserved                    |
 * | 256   | shutdown count              |
 * | 320   | heap: blocks                |
 * +-------+-----------------------------+
 * </pre>
 *
 * <p>The watermark is the offset, within its segment, of the next unallocated byte: it starts at the
 * heap's start ({@link #heapStart(int)}), only grows, by compare-and-swap, and never passes the
 * segment's end. Below it the heap is a sequence of blocks, each behind its {@link BlockHeader}.
 *
 * <p>The barrier word is {@link ClusterBarrier}'s: the generation of released rounds, the
 * participant count of the round in progress and its arrivals (layout in its Javadoc).
 */
public final class ControlBlock {
    /** Offset of each segment's watermark. */
    public static final long WATERMARK = 0;
    /** Offset of the root pointer in segment 0. */
    public static final long ROOT = 64;
    /** Offset of the barrier word (generation, participants, arrivals) in segment 0. */
    public static final long BARRIER_WORD = 128;
    /** Offset of the shutdown count in segment 0. */
    public static final long SHUTDOWN = 256;
    /** First allocatable offset (the first block's header) in segment 0. */
    public static final long FIRST_FREE_SEGMENT_0 = 320;
    /** First allocatable offset (the first block's header) in the other segments. */
    public static final long FIRST_FREE = 64;

    private ControlBlock() {
    }

    /**
     * @param segment a segment index
     * @return the offset where its heap starts, the lowest value its watermark may hold
     */
    public static long heapStart(int segment) {
        return segment == 0 ? FIRST_FREE_SEGMENT_0 : FIRST_FREE;
    }
}
