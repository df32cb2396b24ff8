package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.AllocationPolicy;
import io.remus.core.config.NodeRange;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.error.InvalidFreeException;
import io.remus.core.error.PoolContentionException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.util.SplittableRandom;

/**
 * Remote memory allocation for one compute thread. Every block carries a {@link BlockHeader} (size
 * class, allocated or free, incarnation) in the 8 bytes before it, so a block of class {@code c}
 * takes {@code 8 + SizeClasses.size(c)} bytes of its segment and is 8-byte aligned.
 *
 * <p><b>Where blocks come from.</b> A freed block becomes reusable by every thread of every node. The
 * allocator keeps a cache per memory node and size class of at most {@value #CACHE_CAPACITY} free
 * blocks ({@code 2 * }{@link FreeBlockPool#BATCH}), and a run per memory node and size class: consecutive
 * blocks of the class that it reserved from a segment and has not handed out yet. An allocation takes a
 * block from the cache of its node and class, else from the run, else from the node's shared pool of the
 * class ({@link FreeBlockPool}, in the node's registered memory, changed only by RDMA atomics: the thread's home
 * shard of the pool first, another shard only when that one is empty), refilling
 * the cache with one batch (up to {@link FreeBlockPool#BATCH} blocks); when the pool is empty too, it
 * reserves a new run from one of the node's segments by advancing the segment's watermark
 * ({@link ControlBlock}) with one RDMA atomic, and carves the run's blocks one by one with no atomic on the
 * watermark. A run is up to {@value #RUN_BLOCKS} blocks, at most {@value #RUN_BYTES} bytes and at most
 * 1 / {@value #RUN_SEGMENT_SHARE} of its segment's heap (one block where a block is larger): {@link #blocksPerRun}.
 * So the watermark's atomics are per run, not per block,
 * and the same whatever the number of allocators: the design of RACE hashing's client-side allocation
 * from memory reserved in advance (Zuo, Sun, Hua, "One-sided RDMA-Conscious Extendible Hashing for
 * Disaggregated Memory", USENIX ATC 2021), with the reservation itself one-sided. A free puts the block in
 * the cache of its own node and class; a free that finds that cache full first drains one batch of it to
 * the node's pool. {@link #flush()} drains every cache; {@link #close()} also returns the runs' blocks to
 * the pools.
 *
 * <p><b>The watermark's atomic.</b> Where this allocator last read the watermark with room for at least
 * {@value #HEADROOM_RUNS} runs before the segment's end, it reserves with a fetch-and-add of the run's
 * bytes, which never fails, so that however many allocators reserve at once each pays one atomic per run.
 * Otherwise (near the end, and for its first reservation from a segment, whose watermark it has not read
 * yet) it reserves with a compare-and-swap from the value it last saw to that value plus the run, the run
 * capped at the blocks that fit before the segment's end; a failed compare-and-swap returns the watermark,
 * which the retry expects. So a compare-and-swap never carries the watermark past the segment's end, and a
 * segment too full for a block of one class still serves smaller classes from its tail. A fetch-and-add
 * whose allocator saw the watermark long ago may find the segment full: it keeps what is left of the
 * segment that fits blocks of its class, the watermark is then past the segment's end (the segment counts
 * as full for every class: less than one block of that class at its end stays unused), and that allocator
 * never adds to that watermark again. Before it is used, every watermark value returned is checked: one
 * below its segment's heap, more than {@value #OVERSHOOT_LIMIT} bytes past its end, not 8-byte aligned, or
 * lower than one this allocator saw before is a {@link CorruptedControlBlockException} naming it, and
 * nothing is handed out from it. A pool head or a pooled block that holds what the pool never writes is a
 * {@link CorruptedMemoryException} naming it, and the pool is left as it is.
 *
 * <p><b>Exhaustion.</b> A run's blocks are out of other allocators' reach until its allocator takes them
 * or closes, so an allocation can fail while others' runs hold blocks of its class that it could have
 * used: at most {@code blocksPerRun(c) - 1} (at most {@value #RUN_BLOCKS}{@code  - 1}, at most
 * {@value #RUN_BYTES} bytes, and at most 1 / {@value #RUN_SEGMENT_SHARE} of a segment's heap) of class {@code c}
 * per memory node per other allocator that has not closed.
 * Near a segment's end runs are capped at what fits, and an allocation served from a run it reserved
 * itself leaves the rest of that run to later allocations of this allocator.
 *
 * <p><b>Checks.</b> Frees are checked against the block's header: a null, foreign-node or misaligned
 * pointer, one outside every segment's heap (the control words among them), one whose preceding word
 * is not its header (never allocated), one of another size class, or one already free is refused
 * with a typed exception ({@link BadArgumentException}, {@link InvalidFreeException},
 * {@link DoubleFreeException}) before anything changes. The free itself is a compare-and-swap of the
 * header from allocated to free (incarnation + 1), so of two racing frees of one block exactly one
 * succeeds, and a block in a cache or a pool is refused by every free. Handing a free block out again
 * is a compare-and-swap of its header from free to allocated (incarnation + 1), not a WRITE, which the
 * failed compare-and-swap of a losing racing free could undo ({@link BlockHeader}): the block is this
 * allocator's alone while it is cached, and no free changes a free header; a stray store into the header
 * of a cached block is found there, as one into a pooled block's is by the refill, which reads every
 * header it takes. A free through a
 * stale pointer to a block that was freed and reused since is not detectable here (the pointer does not
 * carry the incarnation); reclamation is what prevents it.
 *
 * <p><b>Cost, amortised.</b> Every allocation of a cached block costs one RDMA compare-and-swap (its
 * header); every free one READ (a CPU read on the thread's own node) and one compare-and-swap (its
 * header). The pool adds one compare-and-swap per batch moved: a refill of {@code n} blocks costs
 * at most {@code 2 + 2n} READs and one compare-and-swap, a drain of {@link FreeBlockPool#BATCH} blocks
 * that many WRITEs (the links), one READ and two compare-and-swaps (the first block's header, the head),
 * plus one compare-and-swap (and a walk or a WRITE) per attempt lost to another thread, and per shard a refill
 * finds emptied under it one more READ of the pool's heads. A drain pushes to the thread's home shard, and
 * threads with different home shards never contend for a head ({@link FreeBlockPool}). Without
 * contention, blocks that go round through the pools cost at most {@code 1 + 1/BATCH} = 1.0625 RDMA
 * atomics per allocation and {@code 1 + 2/BATCH} = 1.125 per free (the header's compare-and-swap, which
 * the double-free check needs, and 2/16 for the pool): over as many allocations as frees, at most
 * {@code 1 + 1.5/BATCH} = 1.09375 per operation. A block a thread frees and reuses itself costs exactly
 * two atomics, its free's and its reuse's. {@code RemoteAllocatorPoolTest}
 * measures these bounds with {@link ComputeThread#postedOperations}. A carved block costs one compare-and-swap on
 * its header (0 to allocated, which finds a watermark moved back into allocated memory), plus, once per run
 * (once per {@link #blocksPerRun} blocks, 16 for classes up to 2 KiB), one READ of the pool's heads (one
 * 64-byte READ of the class's line of {@value ControlBlock#POOL_SHARDS} shard heads; not posted on the thread's
 * own node) and one atomic on the watermark: amortised, {@code 1 + 1/16} atomics and
 * {@code 1/16} READs per carved block of those classes, whatever the number of allocators. Worst case, a
 * reservation by compare-and-swap (near a segment's end, or an allocator's first from a segment) also costs
 * one failed compare-and-swap per run others reserved from the segment since this allocator saw its
 * watermark. {@code RemoteAllocatorContentionTest} measures the watermark's atomics with 8 and 32
 * allocators at once.
 *
 * <p><b>Progress.</b> Every call ends after a bounded number of steps: a pool operation tries at most
 * {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps ({@link PoolContentionException}), a reservation
 * is one fetch-and-add or makes at most one compare-and-swap per run reserved from the segment meanwhile,
 * and a node whose pool and segments have no block of the class is an {@link AllocationExhaustedException},
 * never a loop. Free blocks in other threads' caches are not found by an allocation: up to
 * {@value #CACHE_CAPACITY} blocks per memory node and class per thread are out of others' reach until that
 * thread flushes, and the blocks of its runs (see Exhaustion) until it closes.
 *
 * <p><b>Crash.</b> A process that dies loses the blocks in its allocators' caches and runs: per allocator (one
 * per thread) at most {@value #CACHE_CAPACITY} cached blocks and {@value #RUN_BLOCKS}{@code  - 1} reserved
 * ones (at most {@value #RUN_BYTES} bytes) of each size class on each memory node, that is at most
 * {@code SizeClasses.COUNT * (CACHE_CAPACITY + RUN_BLOCKS - 1) * memoryNodes} = 18 x 47 x nodes blocks, plus
 * what it allocated and did not free. It never corrupts a pool: a push or pop it did not finish either
 * published its batch with its one compare-and-swap of the pool's head or left the pool as it was
 * ({@link FreeBlockPool}).
 *
 * <p><b>Lifecycle.</b> Not thread-safe: one per compute thread, used by that compute thread's owner.
 * The owner calls {@link #close()} before it drops the allocator or closes the compute thread (closing the
 * compute thread closes {@link ComputeThread#allocator()}), so that the blocks its caches and runs hold go
 * back to the pools; an allocator dropped without it leaks them, at most the Crash bound above.
 * {@link #flush()} hands the cached blocks to the pools at any time and keeps the runs.
 */
public final class RemoteAllocator implements AutoCloseable {
    /** Most free blocks one cache (one memory node, one size class) of an allocator holds. */
    public static final int CACHE_CAPACITY = 2 * FreeBlockPool.BATCH;
    /** Most blocks one run (one memory node, one size class) holds: what one atomic on a watermark reserves. */
    public static final int RUN_BLOCKS = FreeBlockPool.BATCH;
    /** Most bytes one run reserves, headers included; a class whose block is larger has runs of one block. */
    public static final long RUN_BYTES = 64 << 10;
    /**
     * A run takes at most this share (1 / {@value}) of its segment's heap, and at least one block, so that on small
     * segments runs shrink towards single blocks and the blocks other allocators' runs hold stay a small part of a
     * segment.
     */
    public static final int RUN_SEGMENT_SHARE = 16;
    /**
     * Runs of room, as this allocator last saw the watermark, below which it claims with a compare-and-swap capped at
     * the segment's end instead of a fetch-and-add.
     */
    public static final int HEADROOM_RUNS = 64;
    /**
     * How far past its segment's end a watermark may be, at most, before it counts as corrupted: fetch-and-adds of
     * allocators that found the segment full carry it past the end, each at most once per segment by at most
     * {@link #RUN_BYTES}, so this admits 2<sup>24</sup> of them.
     */
    public static final long OVERSHOOT_LIMIT = 1L << 40;

    private final ComputeThread thread;
    private final AllocationPolicy policy;
    private final NodeRange memoryNodes;
    private final int nodeCount;
    private final FreeBlockPool pool;
    private final long[][][] cachedBlocks;
    private final long[][][] cachedHeaders;
    private final int[][] cachedCounts;
    private final long[][] watermarks;
    private final boolean[][] watermarksRead;
    private final long[][] runNext;
    private final int[][] runLeft;
    private final SplittableRandom random;
    private int nextNode;

    /**
     * An allocator for the calling compute thread.
     *
     * @param thread the calling thread's compute thread; the policy comes from its configuration
     */
    public RemoteAllocator(ComputeThread thread) {
        this.thread = thread;
        this.policy = thread.config().allocationPolicy();
        this.memoryNodes = thread.config().memoryNodes();
        this.nodeCount = thread.config().nodes().size();
        this.pool = new FreeBlockPool(thread, nodeCount);
        this.cachedBlocks = new long[memoryNodes.size()][SizeClasses.COUNT][];
        this.cachedHeaders = new long[memoryNodes.size()][SizeClasses.COUNT][];
        this.cachedCounts = new int[memoryNodes.size()][SizeClasses.COUNT];
        this.watermarks = new long[memoryNodes.size()][];
        this.watermarksRead = new boolean[memoryNodes.size()][];
        this.runNext = new long[memoryNodes.size()][SizeClasses.COUNT];
        this.runLeft = new int[memoryNodes.size()][SizeClasses.COUNT];
        this.random = new SplittableRandom(thread.nodeId() * 0x9E3779B97F4A7C15L ^ ThreadTime.nanoTime());
        this.nextNode = thread.nodeId() % memoryNodes.size();
    }

    /**
     * Allocates {@code size} bytes on the memory node the policy picks; see
     * {@link #allocate(long, int)} for its cost.
     *
     * @param size bytes, 1..{@link SizeClasses#MAX}
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException   when the picked node's pool of the class is empty and its segments have no room
     * @throws BadArgumentException           when the size is bad
     * @throws CorruptedControlBlockException when a watermark or the pool head of the node holds a value no allocator writes
     * @throws CorruptedMemoryException       when the block's header, or a block in the pool, was changed by something else
     *                                        than this allocator
     * @throws PoolContentionException        when the refill lost {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps in a row
     */
    public long allocate(long size) {
        return allocate(size, pickNode());
    }

    /**
     * Allocates {@code size} bytes on memory node {@code nodeId}: from this allocator's cache of the
     * node and class, else from its run of the node and class, else from the node's pool (one batch into
     * the cache), or else from a new run reserved from a segment.
     *
     * <p>RDMA operations: a cached block, and a block of this allocator's run of the node and class, cost one
     * compare-and-swap (its header: free to allocated, or 0 to allocated). A refill of {@code n} blocks from the
     * pool adds one READ of the pool's heads (one 64-byte READ of the class's line of shard heads), {@code 2n}
     * READs (each block's header and link) and one compare-and-swap of the head of the first shard that is not
     * empty, from this thread's home shard on, plus a walk and a compare-and-swap per attempt lost to another
     * thread and one more READ of the heads per shard found emptied under it (READs
     * of this thread's own node take the CPU path and are not posted). Reserving a new run, once per
     * {@link #blocksPerRun} blocks, adds the READ of the empty pool's heads and one atomic on a segment's
     * watermark: a fetch-and-add, or near the segment's end (and for this allocator's first run from the
     * segment) a compare-and-swap plus at most one more for each run that others reserved from the segment since
     * this allocator last saw its watermark; a segment this allocator already saw too full for the block costs
     * nothing, one it finds too full costs the atomics that showed it. Amortised over a run, a carved block costs
     * {@code 1 + 1/blocksPerRun} atomics whatever the number of allocators. Lock-free: a refill tries at most
     * {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps, a reservation makes at most one attempt per run
     * reserved from the segment meanwhile, and exhaustion is an exception, never a loop.
     *
     * @param size   bytes, 1..{@link SizeClasses#MAX}
     * @param nodeId a memory node
     * @return the block, 8-byte aligned
     * @throws AllocationExhaustedException   when this allocator's run of the class is empty, the node's pool of the class
     *                                        is empty and its segments have no room (see the class's Exhaustion)
     * @throws BadArgumentException           when the size is bad or the node is not a memory node
     * @throws CorruptedControlBlockException when a watermark or the pool head of the node holds a value no allocator writes
     * @throws CorruptedMemoryException       when the block's header, or a block in the pool, was changed by something else
     *                                        than this allocator
     * @throws PoolContentionException        when the refill lost {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps in a row
     */
    public long allocate(long size, int nodeId) {
        int sizeClass = SizeClasses.classOf(size);
        checkMemoryNode(nodeId);
        int m = nodeId - memoryNodes.first();
        int n = cachedCounts[m][sizeClass];
        if (n == 0 && runLeft[m][sizeClass] == 0) {
            long[] blocks = blocksOf(m, sizeClass);
            n = pool.pop(nodeId, sizeClass, blocks, cachedHeaders[m][sizeClass]);
        }
        if (n > 0) {
            cachedCounts[m][sizeClass] = n - 1;
            return reuse(cachedBlocks[m][sizeClass][n - 1], cachedHeaders[m][sizeClass][n - 1]);
        }
        long footprint = BlockHeader.SIZE + SizeClasses.size(sizeClass);
        if (runLeft[m][sizeClass] == 0) {
            int segments = thread.segmentCount(nodeId);
            long[] seen = watermarksOf(nodeId, segments);
            boolean[] read = watermarksRead[m];
            int s = 0;
            while (s < segments && !reserve(nodeId, m, s, seen, read, sizeClass, footprint)) {
                s++;
            }
            if (s == segments) {
                throw new AllocationExhaustedException("memory node " + nodeId + " has no room for a block of "
                        + SizeClasses.size(sizeClass) + " bytes (its pool of the class is empty, " + segments + " segments full)");
            }
        }
        long header = runNext[m][sizeClass];
        runNext[m][sizeClass] = RemotePtr.offset(header, footprint);
        runLeft[m][sizeClass]--;
        return claim(RemotePtr.offset(header, BlockHeader.SIZE), sizeClass);
    }

    /**
     * Frees a block, after checking that it is a live block of the size's class, into this
     * allocator's cache of the block's node and class; a full cache first drains one batch
     * ({@link FreeBlockPool#BATCH} blocks) to the node's pool. Any thread of any node may then reuse it.
     *
     * <p>RDMA operations: one READ of the block's header (a CPU read when the block is on this
     * thread's node) and one compare-and-swap on it; a drain adds {@link FreeBlockPool#BATCH} WRITEs
     * (the blocks' links), a compare-and-swap of the first block's header, one READ and one compare-and-swap
     * of the pool's head, plus a WRITE and a
     * compare-and-swap per attempt lost to another thread. A refused free changes nothing; a drain that
     * fails ({@link PoolContentionException}, a fabric error) leaves the block allocated and the cache
     * as it was.
     *
     * @param ptr  a block from {@link #allocate}, not freed since
     * @param size the size it was allocated with (any size of the same size class)
     * @throws BadArgumentException           when the pointer is null or not on a memory node, or the size is bad
     * @throws InvalidFreeException           when the pointer is not a live block of the size's class: misaligned,
     *                                        outside every segment's heap, never allocated, or of another class
     * @throws DoubleFreeException            when the block is already free, or another thread freed it meanwhile
     * @throws CorruptedControlBlockException when a drain finds the pool head holding a value no allocator writes
     * @throws PoolContentionException        when a drain lost {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps in a row
     */
    public void deallocate(long ptr, long size) {
        free(ptr, size, 0);
    }

    /**
     * Frees one life of a block: as {@link #deallocate(long, long)}, but only while the block's header is still
     * {@code expectedHeader}, the word its owner read when it took the block (a {@link BlockHeader} word, whose
     * incarnation names the life). A block that was freed, or freed and reused, since that word was read is
     * refused: a stale owner never frees another owner's block. The same RDMA operations as
     * {@link #deallocate(long, long)}: the header's compare-and-swap expects exactly that word.
     *
     * @param ptr            a block from {@link #allocate}
     * @param size           the size it was allocated with (any size of the same size class)
     * @param expectedHeader the block's header word in the life to free (allocated state)
     * @throws BadArgumentException           when the pointer is null or not on a memory node, the size is bad, or
     *                                        {@code expectedHeader} is not an allocated header of this block
     * @throws InvalidFreeException           as {@link #deallocate(long, long)}
     * @throws DoubleFreeException            when the block's header is any other word: that life was freed already
     * @throws CorruptedControlBlockException as {@link #deallocate(long, long)}
     * @throws PoolContentionException        as {@link #deallocate(long, long)}
     */
    public void deallocate(long ptr, long size, long expectedHeader) {
        if (!RemotePtr.isNull(ptr) && (!BlockHeader.isHeaderOf(ptr, expectedHeader)
                || BlockHeader.state(expectedHeader) != BlockHeader.ALLOCATED)) {
            throw new BadArgumentException("0x" + Long.toHexString(expectedHeader) + " is not an allocated header of block "
                    + RemotePtr.toString(ptr));
        }
        free(ptr, size, expectedHeader);
    }

    private void free(long ptr, long size, long expectedHeader) {
        if (RemotePtr.isNull(ptr)) {
            throw new BadArgumentException("cannot deallocate the null pointer");
        }
        int nodeId = RemotePtr.node(ptr);
        checkMemoryNode(nodeId);
        int sizeClass = SizeClasses.classOf(size);
        checkInHeap(ptr, sizeClass);
        long header = BlockHeader.address(ptr);
        long word = thread.read(header);
        if (expectedHeader != 0 && word != expectedHeader) {
            String now = BlockHeader.isHeaderOf(ptr, word) ? BlockHeader.describe(word) : "0x" + Long.toHexString(word);
            throw new DoubleFreeException(ptr, "block " + RemotePtr.toString(ptr) + " was freed (and maybe reused) since"
                    + " its owner took it: its header went from " + BlockHeader.describe(expectedHeader) + " to " + now);
        }
        checkAllocated(ptr, word, sizeClass, size);
        int m = nodeId - memoryNodes.first();
        long[] blocks = blocksOf(m, sizeClass);
        int n = cachedCounts[m][sizeClass];
        if (n == CACHE_CAPACITY) {
            pool.push(nodeId, sizeClass, blocks, cachedHeaders[m][sizeClass], n - FreeBlockPool.BATCH, FreeBlockPool.BATCH);
            n -= FreeBlockPool.BATCH;
            cachedCounts[m][sizeClass] = n;
        }
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
        blocks[n] = ptr;
        cachedHeaders[m][sizeClass][n] = freed;
        cachedCounts[m][sizeClass] = n + 1;
    }

    /**
     * Drains every cache of this allocator to the pools of the blocks' nodes, in batches of up to
     * {@link FreeBlockPool#BATCH} blocks, so that other threads can reuse them. The allocator stays
     * usable. Its owner calls it before dropping the allocator or closing its compute thread, and may
     * call it any time to hand its cached blocks to the other threads.
     *
     * <p>RDMA operations: per batch of {@code n} blocks, {@code n} WRITEs, a compare-and-swap of the first
     * block's header, one READ and one compare-and-swap of a pool's head (plus a WRITE and a compare-and-swap
     * per attempt lost).
     *
     * @throws CorruptedControlBlockException when a pool head holds a value no allocator writes
     * @throws PoolContentionException        when a push lost {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps in a
     *                                        row; the blocks not pushed stay cached, and a later flush pushes them
     */
    public void flush() {
        for (int m = 0; m < cachedCounts.length; m++) {
            int nodeId = memoryNodes.first() + m;
            for (int c = 0; c < SizeClasses.COUNT; c++) {
                int n = cachedCounts[m][c];
                while (n > 0) {
                    int k = Math.min(n, FreeBlockPool.BATCH);
                    pool.push(nodeId, c, cachedBlocks[m][c], cachedHeaders[m][c], n - k, k);
                    n -= k;
                    cachedCounts[m][c] = n;
                }
            }
        }
    }

    /**
     * {@link #flush()}, then hands the blocks left in this allocator's runs (reserved from the watermarks and not
     * handed out: at most {@code RUN_BLOCKS - 1} per memory node and size class) to the pools of their nodes and
     * classes, so that nothing this allocator took from the segments is left unusable. The allocator stays usable: a
     * later allocation reserves a new run, and a later close returns it again. {@link ComputeThread#close()} closes
     * the thread's {@link ComputeThread#allocator()}.
     *
     * <p>RDMA operations: those of {@link #flush()}; per run with {@code k} blocks left, {@code k} compare-and-swaps
     * (each header, 0 to free) and one push of them as a batch: {@code k} WRITEs (the links), a compare-and-swap of
     * the first block's header, one READ and one compare-and-swap of the pool's head (plus a WRITE and a
     * compare-and-swap per attempt lost).
     *
     * @throws CorruptedControlBlockException when a pool head holds a value no allocator writes
     * @throws CorruptedMemoryException       when a block of a run has a header although it was never handed out
     *                                        (memory above the watermark was written); that block is not pooled
     * @throws PoolContentionException        when a push lost {@link FreeBlockPool#MAX_ATTEMPTS} compare-and-swaps in a
     *                                        row
     */
    @Override
    public void close() {
        flush();
        for (int m = 0; m < runLeft.length; m++) {
            for (int c = 0; c < SizeClasses.COUNT; c++) {
                cacheRun(m, c);
            }
        }
        flush();
    }

    /** {@return how many carved blocks this allocator's runs hold, reserved and not handed out yet, for tests and diagnostics} */
    public int reservedBlockCount() {
        int total = 0;
        for (int[] left : runLeft) {
            for (int n : left) {
                total += n;
            }
        }
        return total;
    }

    /** {@return how many free blocks this allocator's caches hold, for tests and diagnostics} */
    public int cachedBlockCount() {
        int total = 0;
        for (int[] counts : cachedCounts) {
            for (int n : counts) {
                total += n;
            }
        }
        return total;
    }

    private long[] blocksOf(int m, int sizeClass) {
        long[] blocks = cachedBlocks[m][sizeClass];
        if (blocks == null) {
            blocks = new long[CACHE_CAPACITY];
            cachedBlocks[m][sizeClass] = blocks;
            cachedHeaders[m][sizeClass] = new long[CACHE_CAPACITY];
        }
        return blocks;
    }

    /**
     * Hands a cached block out: a compare-and-swap of its header from the free word it was cached with to allocated
     * (incarnation + 1). Not a WRITE: a NIC's atomics are atomic only among themselves, and the losing free of two
     * racing frees of this block may still be in flight, its failed compare-and-swap storing back the word it read
     * (as a NIC may, and the simulator's does); against that store a WRITE could be lost, another atomic cannot.
     */
    private long reuse(long block, long freeHeader) {
        long header = BlockHeader.address(block);
        long allocated = BlockHeader.encode(block, BlockHeader.ALLOCATED, BlockHeader.sizeClass(freeHeader),
                BlockHeader.incarnation(freeHeader) + 1);
        long was = thread.compareAndSwap(header, freeHeader, allocated);
        if (was != freeHeader) {
            throw new CorruptedMemoryException(header, was, "the header of block " + RemotePtr.toString(block) + " changed"
                    + " while this allocator held it free: expected " + BlockHeader.describe(freeHeader) + ", found 0x"
                    + Long.toHexString(was) + "; the block is not handed out");
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

    /**
     * Reserves a run of blocks of the class from segment {@code s}: up to {@link #blocksPerRun} of them, as many as
     * fit. With room for {@link #HEADROOM_RUNS} runs above the watermark as this allocator last read it, one
     * fetch-and-add, which never fails; otherwise (and before this allocator has read the watermark at all) a
     * compare-and-swap of what it last saw to that plus the run, capped at the segment's end, retried with the value a
     * failed one returns.
     *
     * @return whether the run holds at least one block; false when the segment is too full for one
     */
    private boolean reserve(int nodeId, int m, int s, long[] seen, boolean[] read, int sizeClass, long footprint) {
        long base = thread.segmentBase(nodeId, s);
        long end = thread.segmentLength(nodeId, s);
        long heap = ControlBlock.heapStart(s, nodeCount);
        long word = RemotePtr.offset(base, ControlBlock.WATERMARK);
        long run = runBlocks(sizeClass, end - heap, footprint);
        long expected = seen[s];
        while (expected <= end - footprint) {
            if (read[s] && end - expected >= HEADROOM_RUNS * run * footprint) {
                long was = thread.fetchAndAdd(word, run * footprint);
                checkWatermark(word, was, heap, end, seen[s], nodeId, s);
                seen[s] = was + run * footprint;
                if (was > end - footprint) {
                    return false;
                }
                startRun(m, sizeClass, RemotePtr.offset(base, was), Math.min(run, (end - was) / footprint));
                return true;
            }
            long blocks = Math.min(run, (end - expected) / footprint);
            long was = thread.compareAndSwap(word, expected, expected + blocks * footprint);
            read[s] = true;
            if (was == expected) {
                seen[s] = expected + blocks * footprint;
                startRun(m, sizeClass, RemotePtr.offset(base, expected), blocks);
                return true;
            }
            checkWatermark(word, was, heap, end, seen[s], nodeId, s);
            seen[s] = was;
            expected = was;
        }
        return false;
    }

    private void startRun(int m, int sizeClass, long firstHeader, long blocks) {
        runNext[m][sizeClass] = firstHeader;
        runLeft[m][sizeClass] = (int) blocks;
    }

    /**
     * Sizes a run: {@value #RUN_BLOCKS} blocks for classes up to 2 KiB, 15 for 4 KiB, 7 for 8 KiB, 3 for 16 KiB, one
     * from 32 KiB on.
     *
     * @param sizeClass a size class below {@link SizeClasses#COUNT}
     * @return how many blocks of the class one reservation takes from a watermark: as many as {@value #RUN_BYTES}
     *         bytes hold with their headers, 1..{@value #RUN_BLOCKS}
     */
    public static int blocksPerRun(int sizeClass) {
        return (int) Math.clamp(RUN_BYTES / (BlockHeader.SIZE + SizeClasses.size(sizeClass)), 1, RUN_BLOCKS);
    }

    /**
     * {@return the blocks of one run from a segment whose heap is {@code heapBytes}: {@link #blocksPerRun}, capped at
     * 1 / {@value #RUN_SEGMENT_SHARE} of the heap, at least 1}
     *
     * @param sizeClass a size class below {@link SizeClasses#COUNT}
     * @param heapBytes the segment's heap: its length less its control words
     * @param footprint one block of the class with its header
     */
    static long runBlocks(int sizeClass, long heapBytes, long footprint) {
        return Math.max(1, Math.min(blocksPerRun(sizeClass), heapBytes / ((long) RUN_SEGMENT_SHARE * footprint)));
    }

    /**
     * Moves the blocks left in a run into this allocator's cache of their node and class, which {@link #flush()}
     * emptied: each header goes from 0 to free by compare-and-swap. A header that is not 0 (memory above the
     * watermark was written) is a {@link CorruptedMemoryException} naming it; the blocks before it are cached, those
     * after it stay in the run.
     */
    private void cacheRun(int m, int sizeClass) {
        if (runLeft[m][sizeClass] == 0) {
            return;
        }
        long footprint = BlockHeader.SIZE + SizeClasses.size(sizeClass);
        long[] blocks = blocksOf(m, sizeClass);
        long[] headers = cachedHeaders[m][sizeClass];
        while (runLeft[m][sizeClass] > 0 && cachedCounts[m][sizeClass] < CACHE_CAPACITY) {
            long header = runNext[m][sizeClass];
            long block = RemotePtr.offset(header, BlockHeader.SIZE);
            runNext[m][sizeClass] = RemotePtr.offset(header, footprint);
            runLeft[m][sizeClass]--;
            long free = BlockHeader.encode(block, BlockHeader.FREE, sizeClass, 0);
            long was = thread.compareAndSwap(header, 0, free);
            if (was != 0) {
                throw new CorruptedMemoryException(header, was, "block " + RemotePtr.toString(block) + ", reserved below"
                        + " the watermark and never handed out, has header 0x" + Long.toHexString(was) + ": memory above"
                        + " the watermark was written; the block is not returned to the pool");
            }
            int n = cachedCounts[m][sizeClass];
            blocks[n] = block;
            headers[n] = free;
            cachedCounts[m][sizeClass] = n + 1;
        }
    }

    private static void checkWatermark(long word, long value, long heap, long end, long seen, int nodeId, int s) {
        String which = "the watermark of segment " + s + " of memory node " + nodeId + " (" + RemotePtr.toString(word) + ")";
        if (value < heap) {
            throw new CorruptedControlBlockException(word, value, which + " holds " + value + ", below the segment's heap ["
                    + heap + ", " + end + "]");
        }
        if (value - end > OVERSHOOT_LIMIT) {
            throw new CorruptedControlBlockException(word, value, which + " holds " + value + ", more than " + OVERSHOOT_LIMIT
                    + " bytes past the end of the segment's heap [" + heap + ", " + end + "]");
        }
        if ((value & 7) != 0) {
            throw new CorruptedControlBlockException(word, value, which + " holds " + value + ", which is not 8-byte aligned");
        }
        if (value < seen) {
            throw new CorruptedControlBlockException(word, value, which + " moved backwards, from " + seen + " to " + value);
        }
    }

    private void checkInHeap(long ptr, int sizeClass) {
        String why = HeapBounds.misplacement(thread, nodeCount, ptr, SizeClasses.size(sizeClass));
        if (why != null) {
            throw new InvalidFreeException(ptr, why);
        }
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

    /**
     * Forgets what this allocator holds of memory node {@code nodeId} after the node restarted with new memory (its
     * compute thread saw a new incarnation): the blocks cached free, the runs reserved and the watermarks seen all
     * named the former incarnation's memory, so none is handed out or returned there; the next allocation on the node
     * reads its new heap afresh. A node outside the memory nodes holds nothing. No RDMA operation.
     *
     * @param nodeId the restarted node
     */
    void forgetNode(int nodeId) {
        if (!memoryNodes.contains(nodeId)) {
            return;
        }
        int m = nodeId - memoryNodes.first();
        java.util.Arrays.fill(cachedCounts[m], 0);
        java.util.Arrays.fill(runLeft[m], 0);
        java.util.Arrays.fill(runNext[m], 0);
        watermarks[m] = null;
        watermarksRead[m] = null;
    }

    private long[] watermarksOf(int nodeId, int segments) {
        long[] seen = watermarks[nodeId - memoryNodes.first()];
        if (seen == null) {
            seen = new long[segments];
            for (int s = 0; s < segments; s++) {
                seen[s] = ControlBlock.heapStart(s, nodeCount);
            }
            watermarks[nodeId - memoryNodes.first()] = seen;
            watermarksRead[nodeId - memoryNodes.first()] = new boolean[segments];
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
