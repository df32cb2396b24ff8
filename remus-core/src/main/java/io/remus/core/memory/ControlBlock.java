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
 * |  64   | root pointer (RemotePtr)    |      |  64   | first allocatable byte   |
 * | 128   | barrier count               |      +-------+--------------------------+
 * | 192   | barrier sense (0 or 1)      |
 * | 256   | shutdown count              |
 * | 320   | first allocatable byte      |
 * +-------+-----------------------------+
 * </pre>
 *
 * <p>The watermark is the offset, within its segment, of the next unallocated byte; allocation is
 * a fetch-and-add on it.
 */
public final class ControlBlock {
    /** Offset of each segment's watermark. */
    public static final long WATERMARK = 0;
    /** Offset of the root pointer in segment 0. */
    public static final long ROOT = 64;
    /** Offset of the barrier's arrival count in segment 0. */
    public static final long BARRIER_COUNT = 128;
    /** Offset of the barrier's sense word in segment 0. */
    public static final long BARRIER_SENSE = 192;
    /** Offset of the shutdown count in segment 0. */
    public static final long SHUTDOWN = 256;
    /** First allocatable offset in segment 0. */
    public static final long FIRST_FREE_SEGMENT_0 = 320;
    /** First allocatable offset in the other segments. */
    public static final long FIRST_FREE = 64;

    private ControlBlock() {
    }
}
