package io.remus.core;

import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.error.PoolContentionException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The shared free pools of the memory nodes: per node and size class, a lock-free stack of batches of
 * free blocks (Treiber's stack: R. K. Treiber, "Systems Programming: Coping with Parallelism", IBM
 * RJ 5118, 1986, with a tagged head against ABA, the tag taken from the top block's incarnation), sharded:
 * each pool is {@value ControlBlock#POOL_SHARDS} such stacks, whose heads are the words
 * {@link ControlBlock#POOL_HEADS}{@code + 64 * sizeClass + 8 * shard} of the node's segment 0, one 64-byte line
 * per class, each changed only by RDMA compare-and-swap; its links are the first payload word of the free
 * blocks themselves, so the pool takes no memory of its own.
 *
 * <p><b>Shards.</b> Every compute thread has a home shard, the same for every node and class:
 * {@code (nodeId * threadsPerNode + ordinal) mod }{@value ControlBlock#POOL_SHARDS}, from its node's id and
 * how many compute threads its node created before it, so that the threads of a run spread evenly over the
 * shards, and a run replays under the virtual-time scheduler. A push goes to the pusher's home shard. A pop
 * READs the class's whole line of heads at once (one 64-byte READ) and pops the first shard that is not
 * empty, from its home shard on in shard order; only when its home shard is empty does it take from
 * another's. So threads whose home shards differ never contend for a head, and as long as every thread
 * pops what it pushes, each stack sees the contention of {@code 1/}{@value ControlBlock#POOL_SHARDS} of the
 * threads. A pop reports the pool empty only when a READ of the line found every shard empty, so every
 * free block is found by every thread, whichever shard holds it (the line's READ is no atomic snapshot: a
 * block pushed while it runs may be missed, as a block pushed just after a READ of a single head would
 * be). Each shard is a stack as below, and everything said below of "the pool" and "the head" holds of
 * each shard and its head.
 *
 * <pre>
 * head word  63         45 44                                      0
 *           +-------------+-----------------------------------------+
 *           |  tag (19)   |  address / 8 of the top batch's first   |   address 0: the pool is empty (tag 0)
 *           +-------------+-----------------------------------------+
 * link word  63         45 44                                      0    (payload word 0 of a pooled block)
 *           +-------------+-----------------------------------------+
 *           | remaining   |  address / 8 of the next block          |
 *           +-------------+-----------------------------------------+
 *
 *  head -&gt; [b1 r=3] -&gt; [b2 r=2] -&gt; [b3 r=1] -&gt; [c1 r=2] -&gt; [c2 r=1] -&gt; 0
 *          \_________ batch b _________/      \____ batch c ____/
 * </pre>
 *
 * <p>The pool is one singly linked list of free blocks cut into batches of 1..{@value #BATCH} blocks.
 * Each block's link counts the blocks of its batch from it to the batch's end ({@code remaining}, the
 * batch's size at its first block, 1 at its last), and the last block's link points to the next
 * batch's first block (0 at the bottom). Every block needs only its first payload word, so the 8-byte
 * class is pooled like the others. Addresses are a node's 48-bit {@link RemotePtr} addresses, which are
 * 8-byte aligned, so 45 bits hold any block of any configuration and the tag keeps 19 bits.
 *
 * <p><b>The tag.</b> The head's tag is the low 19 bits of the {@link BlockHeader} incarnation of the
 * top batch's first block, and a push adds one to that incarnation (a compare-and-swap of the header of a
 * block the pusher holds, not a WRITE: see {@link BlockHeader}) before it publishes the batch. So the head word names the top block and how
 * many times it was pushed, not how many times the head changed: other threads' pushes and pops,
 * however many, bring the head back to a value a delayed operation read only if the same block is
 * on top again without having been pushed since, which means it stayed in the pool all along, and
 * then so did everything below it (a pool changes only at its top): the delayed operation's view of
 * the list is still true. This holds shard by shard: a batch is pushed onto one shard and leaves it only
 * by a pop of the whole batch, so a head only ever names the first block of a batch, and a block that
 * is a shard's top again after it left, on that shard or on another, got there as the first block of
 * a push, which added one to its incarnation; a pop's compare-and-swap is on the head of the shard
 * whose value it read, so the argument never compares words of two shards.
 *
 * <p><b>Pop</b> (a thread's cache of the class is empty): READ the heads (the line; a shard's head thereafter
 * is the value a failed compare-and-swap returns, and the line is READ again when the shard being popped
 * turns out empty); walk the top batch of the first shard that is not empty, reading
 * each block's header and link (two READs per block), and the header of the next batch's first block
 * (one READ, none at the bottom), and check them; compare-and-swap the head from what was read to
 * (the next batch, its first block's incarnation). <b>Push</b> (a cache drains one batch): WRITE the
 * links of the batch's blocks, compare-and-swap the first block's header to its incarnation + 1, READ the head,
 * WRITE the last block's link to the head's batch, compare-and-swap the head from what was read to
 * (the batch's first block, its new incarnation); a failed compare-and-swap returns the head, and the
 * retry rewrites the last link and tries again. So a pop of {@code n} blocks costs at most
 * {@code 2 + 2n} READs and one compare-and-swap, a push {@code n} WRITEs, one READ and two
 * compare-and-swaps, plus per failed compare-and-swap a walk (pop) or a WRITE (push) and one more
 * compare-and-swap, and per shard a pop finds emptied under it one more READ of the line; a pop that
 * finds every shard empty costs that one READ. On the thread's own node the READs take the CPU path and
 * are not posted.
 *
 * <p><b>Why it is correct.</b> A pooled block's header is its FREE header and its link is what its
 * pusher wrote before the compare-and-swap that published it; nobody writes either while it is in
 * the pool (a free of a pooled block reads FREE and is refused), except the push that put it there,
 * which changes its first block's header before the compare-and-swap. A pop's compare-and-swap
 * succeeds only when the head holds what the pop read, and then (see the tag) the batch it walked
 * was on top, unchanged, all along, and the next batch and tag it installs are the true ones; the
 * same holds for the list a push links its batch to. A walk that meets anything else than FREE
 * headers of the class (the top one matching the head's tag) or a consistent link is either racing
 * a pop (the head has changed: it retries) or looking at garbage (the head has not:
 * {@link CorruptedMemoryException} naming the block, and the head is left as it is).
 *
 * <p><b>What the tag does not cover.</b> The tag wraps when one block has been pushed as a batch's
 * first block 2<sup>19</sup> times (reuses of the block add to its incarnation too): a push or pop
 * delayed between its READ of the head and its compare-and-swap while that same block left the top
 * and came back a multiple of 2<sup>19</sup> pushes later could install a stale list. Head changes by
 * other blocks, however many, do not count toward it.
 *
 * <p><b>Progress.</b> Lock-free: a compare-and-swap fails, or a shard a pop chose turns out empty, only
 * because another push or pop succeeded. Each operation makes at most {@value #MAX_ATTEMPTS} attempts (a
 * pop's READs of the line count as attempts), then throws
 * {@link PoolContentionException} with nothing done.
 *
 * <p><b>Crash.</b> A push writes only into blocks its thread owns until its compare-and-swap, which
 * publishes the whole batch at once: a thread that dies before it leaves the pool as it was (the
 * batch is lost with the thread), one that dies after it has pushed. A pop changes nothing before
 * its compare-and-swap; after it the batch belongs to the popping thread.
 */
public final class FreeBlockPool {
    /** Most blocks in one batch. */
    public static final int BATCH = 16;
    /** Most compare-and-swaps one push or pop tries before {@link PoolContentionException}. */
    public static final int MAX_ATTEMPTS = 10_000;
    /** READs of a head that looks torn, at most, for two in a row that agree. */
    private static final int STABLE_READ_ATTEMPTS = 64;

    private static final int ADDRESS_BITS = RemotePtr.ADDRESS_BITS - 3;
    private static final long ADDRESS_MASK = (1L << ADDRESS_BITS) - 1;
    private static final int HIGH_BITS = Long.SIZE - ADDRESS_BITS;
    private static final long HIGH_MASK = (1L << HIGH_BITS) - 1;

    static {
        if (BATCH > HIGH_MASK) {
            throw new ExceptionInInitializerError("a link's remaining count has " + HIGH_BITS + " bits, too few for "
                    + BATCH + " blocks");
        }
    }

    private static final int SHARDS = ControlBlock.POOL_SHARDS;

    private final ComputeThread thread;
    private final int nodeCount;
    private final int home;
    private final Runnable beforePopCompareAndSwap;
    /** The class's line of heads as this pool last READ it (or a failed compare-and-swap returned a shard's). */
    private final long[] heads = new long[SHARDS];
    private final MemorySegment line = MemorySegment.ofArray(heads);
    private long pops;
    private long popsEmpty;
    private long popLosses;
    private long pushes;
    private long pushLosses;
    private long nextBatch;
    /** The tag a head naming {@link #nextBatch} carries, from its first block's header. */
    private long nextTag;
    /** The head word {@link #checkedTop} took its top from (read again when the first one looked torn). */
    private long lastHead;
    private long problemWord;
    private long problemValue;
    private String problem;

    /**
     * @param thread    the compute thread that runs the pool operations
     * @param nodeCount the cluster's node count
     */
    FreeBlockPool(ComputeThread thread, int nodeCount) {
        this(thread, nodeCount, null);
    }

    /**
     * @param thread                  the compute thread that runs the pool operations
     * @param nodeCount               the cluster's node count
     * @param beforePopCompareAndSwap run by {@link #pop} between its walk and its compare-and-swap of
     *                                the head, or null: where tests hold a pop back while others change
     *                                the pool
     */
    FreeBlockPool(ComputeThread thread, int nodeCount, Runnable beforePopCompareAndSwap) {
        this.thread = thread;
        this.nodeCount = nodeCount;
        this.home = homeShard(thread);
        this.beforePopCompareAndSwap = beforePopCompareAndSwap;
    }

    /**
     * @param thread a compute thread
     * @return its home shard: {@code (nodeId * threadsPerNode + ordinal) mod }{@value ControlBlock#POOL_SHARDS}
     */
    static int homeShard(ComputeThread thread) {
        return (int) Math.floorMod((long) thread.nodeId() * thread.config().threadsPerNode() + thread.ordinal(), SHARDS);
    }

    /** {@return the pops that took a batch, for tests and diagnostics} */
    long pops() {
        return pops;
    }

    /** {@return the pops that found every shard empty, for tests and diagnostics} */
    long emptyPops() {
        return popsEmpty;
    }

    /** {@return the compare-and-swaps of a head that pops lost, for tests and diagnostics} */
    long popLosses() {
        return popLosses;
    }

    /** {@return the pushes that published a batch, for tests and diagnostics} */
    long pushes() {
        return pushes;
    }

    /** {@return the compare-and-swaps of a head that pushes lost, for tests and diagnostics} */
    long pushLosses() {
        return pushLosses;
    }

    /**
     * The blocks in a pool, shard by shard from shard 0, each top first, for tests and diagnostics: a walk
     * of the whole lists that is exact only while no thread pushes or pops (at quiescence). Costs one READ
     * of each shard's head and two READs per block.
     *
     * @param thread    a compute thread
     * @param nodeId    a memory node
     * @param sizeClass a size class below {@link SizeClasses#COUNT}
     * @return the blocks
     * @throws BadArgumentException     when the node is not a memory node or the class is out of range
     * @throws CorruptedMemoryException when the list holds what no push writes, or more blocks than the
     *                                  node's segments can hold (a cycle); its message names the word
     */
    public static long[] blocks(ComputeThread thread, int nodeId, int sizeClass) {
        NodeRange memoryNodes = thread.config().memoryNodes();
        if (!memoryNodes.contains(nodeId)) {
            throw new BadArgumentException("node " + nodeId + " is not a memory node (" + memoryNodes + ")");
        }
        if (sizeClass < 0 || sizeClass >= SizeClasses.COUNT) {
            throw new BadArgumentException("size class must be 0.." + (SizeClasses.COUNT - 1) + ", got " + sizeClass);
        }
        FreeBlockPool pool = new FreeBlockPool(thread, thread.config().nodes().size());
        long capacity = 0;
        for (int s = 0; s < thread.segmentCount(nodeId); s++) {
            capacity += thread.segmentLength(nodeId, s) / (BlockHeader.SIZE + SizeClasses.size(sizeClass));
        }
        long[] found = new long[BATCH];
        long[] headers = new long[BATCH];
        long[] all = new long[64];
        int count = 0;
        for (int shard = 0; shard < SHARDS; shard++) {
            long headPtr = headPointer(thread, nodeId, sizeClass, shard);
            long next = pool.checkedTop(headPtr, thread.read(headPtr), nodeId, sizeClass);
            while (next != RemotePtr.NULL) {
                int n = pool.walk(next, sizeClass, found, headers);
                if (n < 0) {
                    throw pool.corrupted(nodeId, sizeClass);
                }
                if (count + n > capacity) {
                    throw new CorruptedMemoryException(BlockHeader.address(next), headers[0], "the pool of " + SizeClasses.size(sizeClass)
                            + "-byte blocks of node " + nodeId + " lists more than the " + capacity + " blocks its segments hold: its"
                            + " links form a cycle");
                }
                if (count + n > all.length) {
                    all = Arrays.copyOf(all, Math.max(all.length * 2, count + n));
                }
                System.arraycopy(found, 0, all, count, n);
                count += n;
                next = pool.nextBatch;
            }
        }
        return Arrays.copyOf(all, count);
    }

    /**
     * Pops the top batch of a shard of a pool, the home shard's unless it is empty, into {@code blocks[0..n)},
     * with the FREE header word of each in {@code headers}. The blocks are then the caller's: their headers are FREE, and the caller's
     * compare-and-swap of a header from that word to allocated is what hands one out.
     *
     * @param nodeId    the memory node
     * @param sizeClass the class
     * @param blocks    at least {@link #BATCH} entries
     * @param headers   at least {@link #BATCH} entries
     * @return how many blocks were popped, 0 when a READ of the pool's heads found every shard empty
     * @throws CorruptedControlBlockException when the head holds what no push or pop writes
     * @throws CorruptedMemoryException       when a block of the top batch has no FREE header of the class or
     *                                        an inconsistent link while the head stays put
     * @throws PoolContentionException        when {@link #MAX_ATTEMPTS} compare-and-swaps failed
     */
    int pop(int nodeId, int sizeClass, long[] blocks, long[] headers) {
        long linePtr = headPointer(thread, nodeId, sizeClass, 0);
        readHeads(linePtr, nodeId);
        int shard = -1;
        long headPtr = 0;
        long head = 0;
        for (int attempt = 1; ; attempt++) {
            if (shard < 0) {
                shard = firstNonEmpty();
                if (shard < 0) {
                    popsEmpty++;
                    return 0;
                }
                headPtr = RemotePtr.offset(linePtr, 8L * shard);
                head = heads[shard];
            }
            long top = checkedTop(headPtr, head, nodeId, sizeClass);
            head = lastHead;
            if (top == RemotePtr.NULL) {
                readHeads(linePtr, nodeId);
                shard = -1;
                if (attempt == MAX_ATTEMPTS) {
                    throw contention("pop from", nodeId, sizeClass);
                }
                continue;
            }
            int n = walk(top, sizeClass, blocks, headers);
            if (n > 0 && tagOf(headers[0]) != tag(head)) {
                n = problem(BlockHeader.address(top), headers[0], "block " + RemotePtr.toString(top) + " on top of the pool has"
                        + " incarnation " + Integer.toUnsignedString(BlockHeader.incarnation(headers[0])) + ", which the head's tag "
                        + tag(head) + " does not match");
            }
            if (n < 0) {
                long now = thread.read(headPtr);
                if (now == head) {
                    throw corrupted(nodeId, sizeClass);
                }
                head = now;
            } else {
                if (beforePopCompareAndSwap != null) {
                    beforePopCompareAndSwap.run();
                }
                long was = thread.compareAndSwap(headPtr, head, encode(nextBatch, nextTag));
                if (was == head) {
                    pops++;
                    return n;
                }
                popLosses++;
                head = was;
            }
            if (attempt == MAX_ATTEMPTS) {
                throw contention("pop from", nodeId, sizeClass);
            }
        }
    }

    /**
     * Pushes {@code blocks[from..from+count)} as one batch onto this pool's home shard. They must be the caller's: blocks of the
     * class on the node, freed (FREE headers), in no pool and no cache of another thread. The first
     * block's header gets its incarnation + 1 (and {@code headers[from]} the new word) before the
     * batch is published.
     *
     * @param nodeId    the memory node they are on
     * @param sizeClass their class
     * @param blocks    the blocks
     * @param headers   their FREE header words, index for index
     * @param from      the first
     * @param count     how many, 1..{@link #BATCH}
     * @throws CorruptedControlBlockException when the head holds what no push or pop writes
     * @throws PoolContentionException        when {@link #MAX_ATTEMPTS} compare-and-swaps failed; the blocks are still
     *                                        the caller's
     * @throws CorruptedMemoryException       when the first block's header is no longer {@code headers[from]}; nothing
     *                                        is published
     */
    void push(int nodeId, int sizeClass, long[] blocks, long[] headers, int from, int count) {
        for (int i = 0; i < count - 1; i++) {
            thread.write(blocks[from + i], encode(blocks[from + i + 1], count - i));
        }
        long first = blocks[from];
        long last = blocks[from + count - 1];
        long pushed = BlockHeader.encode(first, BlockHeader.FREE, sizeClass, BlockHeader.incarnation(headers[from]) + 1);
        long seen = thread.compareAndSwap(BlockHeader.address(first), headers[from], pushed);
        if (seen != headers[from]) {
            throw new CorruptedMemoryException(BlockHeader.address(first), seen, "the header of block "
                    + RemotePtr.toString(first) + " changed while its allocator held it free: expected "
                    + BlockHeader.describe(headers[from]) + ", found 0x" + Long.toHexString(seen) + "; the batch is not pushed");
        }
        headers[from] = pushed;
        long newTag = tagOf(pushed);
        long headPtr = headPointer(thread, nodeId, sizeClass, home);
        long head = thread.read(headPtr);
        for (int attempt = 1; ; attempt++) {
            long top = checkedTop(headPtr, head, nodeId, sizeClass);
            head = lastHead;
            thread.write(last, encode(top, 1));
            long was = thread.compareAndSwap(headPtr, head, encode(first, newTag));
            if (was == head) {
                pushes++;
                return;
            }
            pushLosses++;
            head = was;
            if (attempt == MAX_ATTEMPTS) {
                throw contention("push to", nodeId, sizeClass);
            }
        }
    }

    /**
     * @param thread    a compute thread, for the segment directory
     * @param nodeId    a memory node
     * @param sizeClass a class
     * @param shard     a shard, below {@link ControlBlock#POOL_SHARDS}
     * @return the pointer to the head word of that shard of the node's pool of that class
     */
    static long headPointer(ComputeThread thread, int nodeId, int sizeClass, int shard) {
        return RemotePtr.offset(thread.segmentBase(nodeId, 0), ControlBlock.POOL_HEADS + 64L * sizeClass + 8L * shard);
    }

    /**
     * Reads a class's line of heads into {@link #heads}: one 64-byte READ; on the thread's own node CPU reads of
     * the heads from the home shard on, up to the first that is not empty (the heads after it are set to 0: a pop
     * takes the first non-empty shard from the home shard on, so it never looks at them).
     */
    private void readHeads(long linePtr, int nodeId) {
        if (nodeId != thread.nodeId()) {
            thread.read(linePtr, line);
            return;
        }
        boolean found = false;
        for (int i = 0; i < SHARDS; i++) {
            int shard = (home + i) & (SHARDS - 1);
            heads[shard] = found ? 0 : thread.read(RemotePtr.offset(linePtr, 8L * shard));
            found |= (heads[shard] & ADDRESS_MASK) != 0;
        }
    }

    /** {@return the first shard, from the home shard on, whose head in {@link #heads} names a block; -1 when none does} */
    private int firstNonEmpty() {
        for (int i = 0; i < SHARDS; i++) {
            int shard = (home + i) & (SHARDS - 1);
            if ((heads[shard] & ADDRESS_MASK) != 0) {
                return shard;
            }
        }
        return -1;
    }

    /**
     * @param block a block pointer, or {@link RemotePtr#NULL}
     * @param high  the tag (head word) or remaining count (link word); its low 19 bits are kept
     * @return the head or link word
     */
    static long encode(long block, long high) {
        return ((high & HIGH_MASK) << ADDRESS_BITS) | (RemotePtr.address(block) >>> 3);
    }

    /**
     * @param word   a head or link word
     * @param nodeId the node whose pool it belongs to
     * @return the block it points to, or {@link RemotePtr#NULL}
     */
    static long pointer(long word, int nodeId) {
        long address = (word & ADDRESS_MASK) << 3;
        return address == 0 ? RemotePtr.NULL : RemotePtr.of(nodeId, address);
    }

    /**
     * @param head a head word
     * @return its tag
     */
    static long tag(long head) {
        return head >>> ADDRESS_BITS;
    }

    /**
     * @param header a block's header word
     * @return the tag a head naming that block as its top carries: the low bits of its incarnation
     */
    static long tagOf(long header) {
        return Integer.toUnsignedLong(BlockHeader.incarnation(header)) & HIGH_MASK;
    }

    /**
     * @param link a link word
     * @return its remaining count
     */
    static int remaining(long link) {
        return (int) (link >>> ADDRESS_BITS);
    }

    /**
     * The head word's top block, checked. A READ racing a compare-and-swap of the head can return it
     * half old and half new (Soft-RoCE copies a READ's payload with memcpy), so a head whose top is no
     * block of the class is read again until two READs agree (the second starts after the first
     * ended, so equal values were read whole) before it counts as corrupted.
     *
     * @return the top, checked; {@link #lastHead} holds the head word it came from
     */
    private long checkedTop(long headPtr, long head, int nodeId, int sizeClass) {
        lastHead = head;
        long top = pointer(head, nodeId);
        if (top != RemotePtr.NULL) {
            String why = HeapBounds.misplacement(thread, nodeCount, top, SizeClasses.size(sizeClass));
            for (int i = 0; why != null && i < STABLE_READ_ATTEMPTS; i++) {
                long now = thread.read(headPtr);
                if (now == head) {
                    break;
                }
                head = now;
                lastHead = now;
                top = pointer(head, nodeId);
                why = top == RemotePtr.NULL ? null : HeapBounds.misplacement(thread, nodeCount, top, SizeClasses.size(sizeClass));
            }
            if (why != null) {
                throw new CorruptedControlBlockException(headPtr, head, "the head of the pool of " + SizeClasses.size(sizeClass)
                        + "-byte blocks of node " + nodeId + " (" + RemotePtr.toString(headPtr) + ") holds 0x"
                        + Long.toHexString(head) + ", whose top " + why);
            }
        }
        return top;
    }

    /**
     * Reads one batch from {@code top} into {@code blocks} and {@code headers}, its link to the
     * next batch into {@link #nextBatch}, and the tag of that batch's first block into {@link #nextTag}
     * (one more READ, of its header; 0 at the bottom).
     *
     * @return the batch's size, or -1 when a word did not check (then {@link #problem} says which)
     */
    private int walk(long top, int sizeClass, long[] blocks, long[] headers) {
        long blockSize = SizeClasses.size(sizeClass);
        int node = RemotePtr.node(top);
        long p = top;
        int expected = 0;
        for (int i = 0; i < BATCH; i++) {
            long headerPtr = BlockHeader.address(p);
            long header = thread.read(headerPtr);
            if (!BlockHeader.isHeaderOf(p, header) || BlockHeader.state(header) != BlockHeader.FREE
                    || BlockHeader.sizeClass(header) != sizeClass) {
                return problem(headerPtr, header, "block " + RemotePtr.toString(p) + " in the pool has header "
                        + (BlockHeader.isHeaderOf(p, header) ? BlockHeader.describe(header) : "0x" + Long.toHexString(header))
                        + ", not the free header of a block of its class");
            }
            long link = thread.read(p);
            int remaining = remaining(link);
            long next = pointer(link, node);
            if (remaining < 1 || remaining > BATCH || (expected != 0 && remaining != expected)) {
                return problem(p, link, "block " + RemotePtr.toString(p) + " in the pool has link 0x" + Long.toHexString(link)
                        + ", counting " + remaining + " blocks left in its batch where "
                        + (expected != 0 ? Integer.toString(expected) : "1.." + BATCH) + " belong");
            }
            if (next == RemotePtr.NULL && remaining > 1) {
                return problem(p, link, "block " + RemotePtr.toString(p) + " in the pool has link 0x" + Long.toHexString(link)
                        + ", which ends the list with " + (remaining - 1) + " blocks of its batch still to come");
            }
            if (next != RemotePtr.NULL) {
                String why = HeapBounds.misplacement(thread, nodeCount, next, blockSize);
                if (why != null) {
                    return problem(p, link, "block " + RemotePtr.toString(p) + " in the pool has link 0x" + Long.toHexString(link)
                            + ", to " + why);
                }
            }
            blocks[i] = p;
            headers[i] = header;
            if (remaining == 1) {
                nextBatch = next;
                nextTag = 0;
                if (next != RemotePtr.NULL) {
                    long nextHeaderPtr = BlockHeader.address(next);
                    long nextHeader = thread.read(nextHeaderPtr);
                    if (!BlockHeader.isHeaderOf(next, nextHeader) || BlockHeader.state(nextHeader) != BlockHeader.FREE
                            || BlockHeader.sizeClass(nextHeader) != sizeClass) {
                        return problem(nextHeaderPtr, nextHeader, "block " + RemotePtr.toString(next) + " in the pool has header "
                                + (BlockHeader.isHeaderOf(next, nextHeader) ? BlockHeader.describe(nextHeader)
                                : "0x" + Long.toHexString(nextHeader)) + ", not the free header of a block of its class");
                    }
                    nextTag = tagOf(nextHeader);
                }
                return i + 1;
            }
            expected = remaining - 1;
            p = next;
        }
        throw new IllegalStateException("a batch counted down from at most " + BATCH + " did not end within " + BATCH + " blocks");
    }

    private int problem(long word, long value, String text) {
        problemWord = word;
        problemValue = value;
        problem = text;
        return -1;
    }

    private CorruptedMemoryException corrupted(int nodeId, int sizeClass) {
        return new CorruptedMemoryException(problemWord, problemValue, problem + " (pool of " + SizeClasses.size(sizeClass)
                + "-byte blocks of node " + nodeId + "); something wrote into freed memory, and the pool's head is left as it is");
    }

    private PoolContentionException contention(String what, int nodeId, int sizeClass) {
        return new PoolContentionException("gave up a " + what + " the pool of " + SizeClasses.size(sizeClass) + "-byte blocks of node "
                + nodeId + " after " + MAX_ATTEMPTS + " compare-and-swaps on its head failed: other threads kept changing it");
    }
}
