package io.remus.core.memory;

/**
 * Where a memory node keeps its shared words. Every segment starts with a 64-byte header holding
 * its allocation watermark; segment 0 follows it with the node's control block, one word per
 * 64-byte line where unrelated words are changed by different parties, then the pool heads (one
 * 64-byte line per size class holding its {@value #POOL_SHARDS} shards' heads), the shutdown bitmap and the
 * barrier's arrival bitmap (one bit per node of the cluster each).
 *
 * <pre>
 * segment 0                                          segment i &gt; 0
 * +-------+------------------------------------+     +-------+--------------------------+
 * |   0   | watermark                          |     |   0   | watermark                |
 * |  64   | root pointer (RemotePtr)           |     |  64   | heap: blocks             |
 * |  72   | name directory pointer (RemotePtr) |     +-------+--------------------------+
 * | 128   | barrier word                       |
 * | 192   | reclaimer table pointer            |
 * | 256   | shutdown count                     |
 * | 320   | pool heads: per size class c, the  |
 * |       | line 320 + 64c, 8 shards' heads    |
 * | 1472  | shutdown bitmap, ceil(nodes/64) words
 * |  b    | barrier arrival bitmap, ceil(nodes/64) words (b = barrierBitmap(nodes))
 * |  h    | heap: blocks (h = heapStart(0, nodes), 64-byte aligned)
 * +-------+------------------------------------+
 * </pre>
 *
 * <p>The watermark is the offset, within its segment, of the next byte no allocator has reserved: it
 * starts at the heap's start ({@link #heapStart(int, int)}) and only grows, by RDMA atomics alone: a
 * fetch-and-add or a compare-and-swap of an allocator that reserves a run of blocks
 * ({@link io.remus.core.RemoteAllocator}). A compare-and-swap never carries it past the segment's end; a
 * fetch-and-add may, when the segment fills meanwhile, and a watermark at or past the end means a full
 * segment (at most {@link io.remus.core.RemoteAllocator#OVERSHOOT_LIMIT} bytes past it; more is corruption).
 * Below it the heap is a sequence of blocks, each behind its {@link BlockHeader}, or zeroed where an
 * allocator reserved blocks and has not handed them out yet.
 *
 * <p>The name directory pointer is 0 until the first {@link io.remus.core.NameDirectory#open} of the
 * node publishes, by compare-and-swap, the table of names it creates; it never changes after that. It
 * shares the root pointer's line: both change rarely, and only by compare-and-swap.
 *
 * <p>The barrier word is {@link io.remus.core.ClusterBarrier}'s: the generation of released rounds, the
 * participant count of the round in progress and its arrivals (layout in its Javadoc); the arrival
 * bitmap is its too: a barrier of compute nodes flips node {@code id}'s bit (bit {@code id % 64} of
 * word {@code id / 64}) by fetch-and-add when the node enters a round. The
 * reclaimer table pointer is 0 until a reclaimer publishes, by compare-and-swap, where this node's
 * threads announce their epochs. The pool heads are the heads of the node's shared free pools,
 * {@value #POOL_SHARDS} per size class (the class's shards, side by side in one 64-byte line so that one READ
 * returns them all; see {@link io.remus.core.FreeBlockPool}), changed only by RDMA atomics. The shutdown count and bitmap are
 * the shutdown handshake's ({@link io.remus.core.RemusCluster#close()}): each compute node adds 1
 * to the count and its own bit ({@code 1 << (id % 64)} to word {@code id / 64}) with
 * fetch-and-adds, so a memory node that times out waiting can name the nodes that did not
 * announce.
 */
public final class ControlBlock {
    /** Offset of each segment's watermark. */
    public static final long WATERMARK = 0;
    /** Offset of the root pointer in segment 0. */
    public static final long ROOT = 64;
    /** Offset in segment 0 of the pointer to the node's name directory ({@link io.remus.core.NameDirectory}; 0 when none). */
    public static final long NAMES = 72;
    /** Offset of the barrier word (generation, participants, arrivals) in segment 0. */
    public static final long BARRIER_WORD = 128;
    /** Offset in segment 0 of the pointer to the reclaimer's announcement table of this node (0 when none). */
    public static final long RECLAIMER_TABLE = 192;
    /** Offset of the shutdown count in segment 0. */
    public static final long SHUTDOWN = 256;
    /** Shards of the free pool of one node and size class: heads per class, a power of two that fills a 64-byte line. */
    public static final int POOL_SHARDS = 8;
    /**
     * Offset in segment 0 of the first pool head; shard {@code k} of size class {@code c} has its head at
     * {@code POOL_HEADS + 64 * c + 8 * k}.
     */
    public static final long POOL_HEADS = 320;
    /** Offset in segment 0 of the shutdown bitmap: node {@code id}'s bit is bit {@code id % 64} of word {@code id / 64}. */
    public static final long SHUTDOWN_NODES = 1472;
    /** First allocatable offset (the first block's header) in the segments after the first. */
    public static final long FIRST_FREE = 64;

    static {
        if (8L * POOL_SHARDS != 64 || POOL_HEADS % 64 != 0 || POOL_HEADS + 64L * SizeClasses.COUNT > SHUTDOWN_NODES) {
            throw new ExceptionInInitializerError("pool heads overlap the shutdown bitmap or leave their 64-byte lines");
        }
    }

    private ControlBlock() {
    }

    /**
     * Sizes the shutdown bitmap.
     *
     * @param nodeCount the cluster's node count, 1..{@link RemotePtr#MAX_NODE_ID}{@code  + 1}
     * @return the bytes of the shutdown bitmap: one bit per node, whole words
     */
    public static long shutdownBitmapBytes(int nodeCount) {
        return 8L * ((nodeCount + 63) / 64);
    }

    /**
     * Locates the barrier's arrival bitmap.
     *
     * @param nodeCount the cluster's node count, 1..{@link RemotePtr#MAX_NODE_ID}{@code  + 1}
     * @return the offset in segment 0 of the barrier's arrival bitmap (one bit per node, whole
     *         words), right behind the shutdown bitmap
     */
    public static long barrierBitmap(int nodeCount) {
        return SHUTDOWN_NODES + shutdownBitmapBytes(nodeCount);
    }

    /**
     * Locates the start of a segment's heap.
     *
     * @param segment   a segment index
     * @param nodeCount the cluster's node count (segment 0 holds a shutdown bit and an arrival bit
     *                  per node)
     * @return the offset where the segment's heap starts, the lowest value its watermark may hold
     */
    public static long heapStart(int segment, int nodeCount) {
        if (segment != 0) {
            return FIRST_FREE;
        }
        long end = barrierBitmap(nodeCount) + shutdownBitmapBytes(nodeCount);
        return (end + 63) & ~63L;
    }
}
