package io.remus.core.memory;

import io.remus.core.AllocationExhaustedException;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.CorruptedControlBlockException;
import io.remus.core.CorruptedMemoryException;
import io.remus.core.DoubleFreeException;
import io.remus.core.InvalidFreeException;
import io.remus.core.RemotePtr;
import io.remus.core.config.AllocationPolicy;
import io.remus.core.config.NodeRange;

import java.util.SplittableRandom;

/**
 * Remote memory allocation for one compute thread. Every block carries a {@link BlockHeader} (size
 * class, allocated or free, incarnation) in the 8 bytes before it, so a block of class {@code c}
 * takes {@code 8 + SizeClasses.size(c)} bytes of its segment and is 8-byte aligned.
 *
 * <p>A block comes from the thread's free list of its size class when that holds one on the chosen
 * node, otherwise it is carved from one of the node's segments by advancing the segment's watermark
 * ({@link ControlBlock}) with an RDMA compare-and-swap. The watermark never passes its segment's
 * end: a segment too full for a block is left alone, and its tail still serves smaller classes.
 * Before it is used, every watermark value read is checked: one outside its segment's heap, not
 * 8-byte aligned, or lower than one this allocator saw before is a
 * {@link CorruptedControlBlockException} naming it, and nothing is handed out from it.
 *
 * <p>Frees are checked against the block's header: a null, foreign-node or misaligned pointer, one
 * outside every segment's heap (the control words among them), one whose preceding word is not its
 * header (never allocated), one of another size class, or one already free is refused with a typed
 * exception ({@link BadArgumentException}, {@link InvalidFreeException},
 * {@link DoubleFreeException}) before anything changes. The free itself is a compare-and-swap of the
 * header from allocated to free, so of two racing frees of one block exactly one succeeds. A free
 * through a stale pointer to a block that was freed and reused since is not detectable here (the
 * pointer does not carry the incarnation); reclamation is what prevents it.
 *
 * <p>Free lists are private to the thread (a freed block is reused only by the thread that freed
 * it, on the node it lives on, with its header set back to allocated); there is no cluster-wide free
 * list yet, and a free list that is full ({@value #FREE_LIST_CAPACITY} blocks per class) keeps
 * further freed blocks out of use (they stay free, and are leaked). Not thread-safe: one per compute
 * thread, used by that compute thread's owner.
 */
public final class RemoteAllocator {
    private static final int FREE_LIST_CAPACITY = 1024;

    private final ComputeThread thread;
    private final AllocationPolicy policy;
    private final NodeRange memoryNodes;
    private final int nodeCount;
    private final long[][] freeBlocks = new long[SizeClasses.COUNT][];
    private final long[][] freeHeaders = new long[SizeClasses.COUNT][];
    private final int[] freeCounts = new int[SizeClasses.COUNT];
    private final long[][] watermarks;
    private final SplittableRandom random;
    private int nextNode;

    /** @param thread the calling thread's compute thread; the policy comes from its configuration */
    public RemoteAllocator(ComputeThread thread) {
        this.thread = thread;
        this.policy = thread.config().allocationPolicy();
        this.memoryNodes = thread.config().memoryNodes();
        this.nodeCount = thread.config().nodes().size();
        this.watermarks = new long[memoryNodes.size()][];
        this.random = new SplittableRandom(thread.nodeId() * 0x9E3779B97F4A7C15L ^ System.nanoTime());
        this.nextNode = thread.nodeId() % memoryNodes.size();
    }

    /**
     * Allocates {@code size} bytes on the memory node the policy picks; see
     * {@link #allocate(long, int)} for its cost.
     *
     * @param size bytes, 1..{@link SizeClasses#MAX}
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException   when the picked node has no room
     * @throws BadArgumentException           when the size is bad
     * @throws CorruptedControlBlockException when a watermark of the node holds a value no allocator writes
     * @throws CorruptedMemoryException       when the block's header was changed by something else than this allocator
     */
    public long allocate(long size) {
        return allocate(size, pickNode());
    }

    /**
     * Allocates {@code size} bytes on memory node {@code nodeId}.
     *
     * <p>RDMA operations: a block from the free list costs one compare-and-swap (its header, free to
     * allocated). A carved block costs one compare-and-swap on the watermark, plus at most one more
     * for each block that other threads carved from the segment since this allocator last saw its
     * watermark (a failed compare-and-swap returns the current watermark, which the retry expects), and
     * one on the new block's header (0 to allocated); a segment this allocator already saw too full for
     * the block costs nothing, one it finds too full costs the compare-and-swaps that showed it. Wait-free:
     * each retry sees the watermark strictly higher, so a call makes at most one attempt per block
     * carved from the segment meanwhile, and exhaustion is an exception, never a loop.
     *
     * @param size   bytes, 1..{@link SizeClasses#MAX}
     * @param nodeId a memory node
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException   when the node has no room
     * @throws BadArgumentException           when the size is bad or the node is not a memory node
     * @throws CorruptedControlBlockException when a watermark of the node holds a value no allocator writes
     * @throws CorruptedMemoryException       when the block's header was changed by something else than this allocator
     */
    public long allocate(long size, int nodeId) {
        int sizeClass = SizeClasses.classOf(size);
        checkMemoryNode(nodeId);
        int n = freeCounts[sizeClass];
        if (n > 0 && RemotePtr.node(freeBlocks[sizeClass][n - 1]) == nodeId) {
            freeCounts[sizeClass] = n - 1;
            return reuse(freeBlocks[sizeClass][n - 1], freeHeaders[sizeClass][n - 1]);
        }
        long footprint = BlockHeader.SIZE + SizeClasses.size(sizeClass);
        int segments = thread.segmentCount(nodeId);
        long[] seen = watermarksOf(nodeId, segments);
        for (int s = 0; s < segments; s++) {
            long header = carve(nodeId, s, seen, footprint);
            if (header != RemotePtr.NULL) {
                return claim(RemotePtr.offset(header, BlockHeader.SIZE), sizeClass);
            }
        }
        throw new AllocationExhaustedException("memory node " + nodeId + " has no room for a block of "
                + SizeClasses.size(sizeClass) + " bytes (" + segments + " segments full)");
    }

    /**
     * Returns a block to this thread's free list of its size class, after checking that it is a live
     * block of that class.
     *
     * <p>RDMA operations: one READ of the block's header (a CPU read when the block is on this
     * thread's node) and one compare-and-swap on it. Wait-free. A refused free changes nothing.
     *
     * @param ptr  a block from {@link #allocate}, not freed since
     * @param size the size it was allocated with (any size of the same size class)
     * @throws BadArgumentException when the pointer is null or not on a memory node, or the size is bad
     * @throws InvalidFreeException when the pointer is not a live block of the size's class: misaligned,
     *                              outside every segment's heap, never allocated, or of another class
     * @throws DoubleFreeException  when the block is already free, or another thread freed it meanwhile
     */
    public void deallocate(long ptr, long size) {
        if (RemotePtr.isNull(ptr)) {
            throw new BadArgumentException("cannot deallocate the null pointer");
        }
        checkMemoryNode(RemotePtr.node(ptr));
        int sizeClass = SizeClasses.classOf(size);
        checkInHeap(ptr, sizeClass);
        long header = BlockHeader.address(ptr);
        long word = thread.read(header);
        checkAllocated(ptr, word, sizeClass, size);
        long freed = BlockHeader.encode(ptr, BlockHeader.FREE, sizeClass, BlockHeader.incarnation(word) + 1);
        long was = thread.compareAndSwap(header, word, freed);
        if (was != word) {
            if (BlockHeader.isHeaderOf(ptr, was)) {
                throw new DoubleFreeException(ptr, "block " + RemotePtr.toString(ptr) + " was freed by another thread"
                        + " while this one freed it: its header went from " + BlockHeader.describe(word) + " to "
                        + BlockHeader.describe(was));
            }
            throw new InvalidFreeException(ptr, "the header of block " + RemotePtr.toString(ptr) + " was overwritten"
                    + " while it was freed: expected " + BlockHeader.describe(word) + ", found 0x" + Long.toHexString(was));
        }
        int n = freeCounts[sizeClass];
        if (n < FREE_LIST_CAPACITY) {
            if (freeBlocks[sizeClass] == null) {
                freeBlocks[sizeClass] = new long[FREE_LIST_CAPACITY];
                freeHeaders[sizeClass] = new long[FREE_LIST_CAPACITY];
            }
            freeBlocks[sizeClass][n] = ptr;
            freeHeaders[sizeClass][n] = freed;
            freeCounts[sizeClass] = n + 1;
        }
    }

    private long reuse(long block, long freeHeader) {
        long want = BlockHeader.encode(block, BlockHeader.ALLOCATED, BlockHeader.sizeClass(freeHeader),
                BlockHeader.incarnation(freeHeader) + 1);
        long header = BlockHeader.address(block);
        long was = thread.compareAndSwap(header, freeHeader, want);
        if (was != freeHeader) {
            throw new CorruptedMemoryException(header, was, "the header of free block " + RemotePtr.toString(block)
                    + " changed while it was free: expected " + BlockHeader.describe(freeHeader) + ", found "
                    + BlockHeader.describe(was) + "; something wrote into freed memory, and the block is not handed out");
        }
        return block;
    }

    private long claim(long block, int sizeClass) {
        long header = BlockHeader.address(block);
        long was = thread.compareAndSwap(header, 0, BlockHeader.encode(block, BlockHeader.ALLOCATED, sizeClass, 0));
        if (was != 0) {
            throw new CorruptedMemoryException(header, was, "block " + RemotePtr.toString(block) + ", just carved below"
                    + " the watermark, already has header 0x" + Long.toHexString(was) + ": the watermark was moved back"
                    + " into allocated memory, or memory above it was written; the block is not handed out");
        }
        return block;
    }

    /** @return the header pointer of a block of {@code footprint} bytes carved from segment s, or NULL when it is too full */
    private long carve(int nodeId, int s, long[] seen, long footprint) {
        long base = thread.segmentBase(nodeId, s);
        long end = thread.segmentLength(nodeId, s);
        long word = RemotePtr.offset(base, ControlBlock.WATERMARK);
        long expected = seen[s];
        while (expected <= end - footprint) {
            long was = thread.compareAndSwap(word, expected, expected + footprint);
            if (was == expected) {
                seen[s] = expected + footprint;
                return RemotePtr.offset(base, expected);
            }
            checkWatermark(word, was, ControlBlock.heapStart(s, nodeCount), end, seen[s], nodeId, s);
            seen[s] = was;
            expected = was;
        }
        return RemotePtr.NULL;
    }

    private static void checkWatermark(long word, long value, long heap, long end, long seen, int nodeId, int s) {
        String which = "the watermark of segment " + s + " of memory node " + nodeId + " (" + RemotePtr.toString(word) + ")";
        if (value < heap || value > end) {
            throw new CorruptedControlBlockException(word, value, which + " holds " + value + ", outside the segment's heap ["
                    + heap + ", " + end + "]");
        }
        if ((value & 7) != 0) {
            throw new CorruptedControlBlockException(word, value, which + " holds " + value + ", which is not 8-byte aligned");
        }
        if (value < seen) {
            throw new CorruptedControlBlockException(word, value, which + " moved backwards, from " + seen + " to " + value);
        }
    }

    private void checkInHeap(long ptr, int sizeClass) {
        long address = RemotePtr.address(ptr);
        if ((address & 7) != 0) {
            throw new InvalidFreeException(ptr, RemotePtr.toString(ptr) + " is not a block: blocks are 8-byte aligned");
        }
        int node = RemotePtr.node(ptr);
        long blockSize = SizeClasses.size(sizeClass);
        int segments = thread.segmentCount(node);
        for (int s = 0; s < segments; s++) {
            long base = RemotePtr.address(thread.segmentBase(node, s));
            long length = thread.segmentLength(node, s);
            if (address >= base && address < base + length) {
                if (address < base + ControlBlock.heapStart(s, nodeCount) + BlockHeader.SIZE || address + blockSize > base + length) {
                    throw new InvalidFreeException(ptr, RemotePtr.toString(ptr) + " is not a block of " + blockSize
                            + " bytes: segment " + s + " of node " + node + " keeps blocks with their headers in ["
                            + ControlBlock.heapStart(s, nodeCount) + ", " + length + ") of its bytes, and offset " + (address - base)
                            + " is " + (address - base < ControlBlock.heapStart(s, nodeCount) + BlockHeader.SIZE ? "in its control words" : "too close to its end"));
                }
                return;
            }
        }
        throw new InvalidFreeException(ptr, RemotePtr.toString(ptr) + " is not a block: it is in no segment of memory node " + node);
    }

    private static void checkAllocated(long ptr, long word, int sizeClass, long size) {
        if (!BlockHeader.isHeaderOf(ptr, word)) {
            throw new InvalidFreeException(ptr, RemotePtr.toString(ptr) + " was never allocated: the word before it holds 0x"
                    + Long.toHexString(word) + ", which is not its block header");
        }
        if (BlockHeader.state(word) == BlockHeader.FREE) {
            throw new DoubleFreeException(ptr, "block " + RemotePtr.toString(ptr) + " is already free: its header is "
                    + BlockHeader.describe(word));
        }
        if (BlockHeader.sizeClass(word) != sizeClass) {
            throw new InvalidFreeException(ptr, "block " + RemotePtr.toString(ptr) + " is a block of "
                    + SizeClasses.size(BlockHeader.sizeClass(word)) + " bytes, freed with size " + size + " (class of "
                    + SizeClasses.size(sizeClass) + " bytes)");
        }
    }

    private long[] watermarksOf(int nodeId, int segments) {
        long[] seen = watermarks[nodeId - memoryNodes.first()];
        if (seen == null) {
            seen = new long[segments];
            for (int s = 0; s < segments; s++) {
                seen[s] = ControlBlock.heapStart(s, nodeCount);
            }
            watermarks[nodeId - memoryNodes.first()] = seen;
        }
        return seen;
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
