package io.remus.core.memory;

import io.remus.core.AllocationExhaustedException;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.config.AllocationPolicy;
import io.remus.core.config.NodeRange;

import java.util.SplittableRandom;

/**
 * Remote memory allocation for one compute thread. A block comes from the thread's free list of
 * its size class when that holds one on the chosen node, otherwise from a NIC fetch-and-add on the
 * watermark of one of the node's segments ({@link ControlBlock}): the old watermark is the block's
 * offset if the block fits, else the segment is full and the next one is tried. Each call performs
 * at most one fetch-and-add per segment: it never loops unboundedly, and exhaustion is an
 * {@link AllocationExhaustedException}. A fetch-and-add that overshoots leaves the watermark past
 * the segment's end, so the segment's tail is lost to every size class (bump allocation's waste).
 *
 * <p>Free lists are private to the thread (a freed block is reused only by the thread that freed
 * it, on the node it lives on); there is no cluster-wide free list yet, and a free list that is full
 * forgets further blocks. Not thread-safe: one per compute thread.
 */
public final class RemoteAllocator {
    private static final int FREE_LIST_CAPACITY = 1024;

    private final ComputeThread thread;
    private final AllocationPolicy policy;
    private final NodeRange memoryNodes;
    private final long[][] freeLists = new long[SizeClasses.COUNT][FREE_LIST_CAPACITY];
    private final int[] freeCounts = new int[SizeClasses.COUNT];
    private final boolean[][] exhausted;
    private final SplittableRandom random;
    private int nextNode;

    /** @param thread the calling thread's compute thread; the policy comes from its configuration */
    public RemoteAllocator(ComputeThread thread) {
        this.thread = thread;
        this.policy = thread.config().allocationPolicy();
        this.memoryNodes = thread.config().memoryNodes();
        this.exhausted = new boolean[memoryNodes.size()][];
        this.random = new SplittableRandom(thread.nodeId() * 0x9E3779B97F4A7C15L ^ System.nanoTime());
        this.nextNode = thread.nodeId() % memoryNodes.size();
    }

    /**
     * Allocates {@code size} bytes on the memory node the policy picks.
     *
     * @param size bytes, 1..{@link SizeClasses#MAX}
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException when the picked node has no room
     * @throws BadArgumentException         when the size is bad
     */
    public long allocate(long size) {
        return allocate(size, pickNode());
    }

    /**
     * Allocates {@code size} bytes on memory node {@code nodeId}.
     *
     * @param size   bytes, 1..{@link SizeClasses#MAX}
     * @param nodeId a memory node
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException when the node has no room
     * @throws BadArgumentException         when the size is bad or the node is not a memory node
     */
    public long allocate(long size, int nodeId) {
        int sizeClass = SizeClasses.classOf(size);
        checkMemoryNode(nodeId);
        int n = freeCounts[sizeClass];
        if (n > 0 && RemotePtr.node(freeLists[sizeClass][n - 1]) == nodeId) {
            freeCounts[sizeClass] = n - 1;
            return freeLists[sizeClass][n - 1];
        }
        long blockSize = SizeClasses.size(sizeClass);
        int segments = thread.segmentCount(nodeId);
        boolean[] full = exhausted[nodeId - memoryNodes.first()];
        if (full == null) {
            full = new boolean[segments];
            exhausted[nodeId - memoryNodes.first()] = full;
        }
        for (int s = 0; s < segments; s++) {
            if (full[s]) {
                continue;
            }
            long segmentBase = thread.segmentBase(nodeId, s);
            long offset = thread.fetchAndAdd(RemotePtr.offset(segmentBase, ControlBlock.WATERMARK), blockSize);
            if (offset + blockSize <= thread.segmentLength(nodeId, s)) {
                return RemotePtr.offset(segmentBase, offset);
            }
            full[s] = true;
        }
        throw new AllocationExhaustedException("memory node " + nodeId + " has no room for a block of " + blockSize
                + " bytes (" + segments + " segments full)");
    }

    /**
     * Returns a block to this thread's free list of its size class.
     *
     * @param ptr  a block from {@link #allocate}
     * @param size the size it was allocated with
     */
    public void deallocate(long ptr, long size) {
        if (RemotePtr.isNull(ptr)) {
            throw new BadArgumentException("cannot deallocate the null pointer");
        }
        checkMemoryNode(RemotePtr.node(ptr));
        int sizeClass = SizeClasses.classOf(size);
        int n = freeCounts[sizeClass];
        if (n < FREE_LIST_CAPACITY) {
            freeLists[sizeClass][n] = ptr;
            freeCounts[sizeClass] = n + 1;
        }
    }

    private void checkMemoryNode(int nodeId) {
        if (!memoryNodes.contains(nodeId)) {
            throw new BadArgumentException("node " + nodeId + " is not a memory node (" + memoryNodes + ")");
        }
    }

    private int pickNode() {
        int count = memoryNodes.size();
        return switch (policy) {
            case RANDOM -> memoryNodes.first() + random.nextInt(count);
            case LOCAL_FIRST -> memoryNodes.contains(thread.nodeId()) ? thread.nodeId() : roundRobin(count);
            case ROUND_ROBIN -> roundRobin(count);
        };
    }

    private int roundRobin(int count) {
        int n = memoryNodes.first() + nextNode;
        nextNode = nextNode + 1 == count ? 0 : nextNode + 1;
        return n;
    }
}
