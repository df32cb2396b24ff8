package io.remus.bench.churn;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One thread's share of a churn workload over a shared array of slots, each holding the pointer of a
 * node block, changed only by compare-and-swap. An operation, inside a guard of the thread's
 * {@link Reclaimer}, either reads a random slot's node and checks it, or replaces it: a new node is
 * allocated, written and swapped in, and the old one retired.
 *
 * <pre>
 * node block ({@value #NODE_BYTES} bytes):
 * +0  value          random
 * +8  incarnation    the block's incarnation when it was written (its header's)
 * +16 slot           the index of the slot it was published in
 * +24 checksum       a hash of the three words above and the block's pointer
 * </pre>
 *
 * <p>The check, on a read whose guard is still {@link Guard#valid()} afterwards: the block's header
 * is its allocated header, in the same incarnation before and after the payload was read, and equal
 * to the payload's; the payload names the slot it was read from and its checksum holds (a poisoned
 * block, {@link SimOptions#poisonFreedBlocks()}, fails it). A correct reclaimer
 * never frees a block a valid guard can still reach, so any failure is a use after free: it is
 * counted in {@link #violations()} and described by {@link #firstViolation()}. A read whose guard
 * lost its lease is not checked but counted in {@link #restarts()}.
 *
 * <p>RDMA operations: a read costs two READs of the slot (more while it changes; none on the
 * slot array's node), two READs of the header and one of the payload; a replace a READ of the slot, the allocation, a READ of the new header, a WRITE of the
 * payload and the compare-and-swap (then the reclaimer's retire). Confined to its thread.
 */
public final class ChurnWorkload {
    /** Bytes of a node block. */
    public static final int NODE_BYTES = 32;
    /** READs of a slot after which, when no two in a row agreed, a read operation gives up and counts a restart. */
    static final int STABLE_READ_ATTEMPTS = 1000;

    private final ComputeThread thread;
    private final RemoteAllocator allocator;
    private final Reclaimer reclaimer;
    private final long array;
    private final int slots;
    private final int readPercent;
    private final int yieldPercent;
    private final int node;
    private final SplittableRandom random;
    private final long[] payload = new long[NODE_BYTES / 8];
    private final MemorySegment payloadSegment = MemorySegment.ofArray(payload);
    private long reads;
    private long replaces;
    private long failedReplaces;
    private long restarts;
    private long violations;
    private String firstViolation;

    /**
     * @param thread       the calling thread's compute thread
     * @param allocator    its allocator, for new nodes
     * @param reclaimer    its reclaimer, which retires replaced nodes
     * @param array        the slot array, from {@link #createArray}
     * @param slots        the array's slot count
     * @param readPercent  the share of operations that read, 0..100 (the rest replace)
     * @param yieldPercent the chance, 0..100, of a {@link Thread#yield()} between two steps of an operation
     * @param seed         the random seed of this thread's choices
     */
    public ChurnWorkload(ComputeThread thread, RemoteAllocator allocator, Reclaimer reclaimer, long array, int slots,
                         int readPercent, int yieldPercent, long seed) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.reclaimer = Objects.requireNonNull(reclaimer, "reclaimer");
        if (slots < 1 || readPercent < 0 || readPercent > 100 || yieldPercent < 0 || yieldPercent > 100) {
            throw new BadArgumentException("churn needs slots >= 1 and percentages 0..100, got " + slots + " slots, "
                    + readPercent + "% reads, " + yieldPercent + "% yields");
        }
        this.array = array;
        this.slots = slots;
        this.readPercent = readPercent;
        this.yieldPercent = yieldPercent;
        this.node = homeNode(thread);
        this.random = new SplittableRandom(seed);
    }

    /**
     * Allocates a slot array on memory node {@code arrayNode} and fills every slot with a node.
     *
     * @param thread    the calling thread's compute thread
     * @param allocator its allocator
     * @param slots     how many slots, 1..(bufferSizePerThread / 8)
     * @param arrayNode the memory node of the array
     * @return the array
     */
    public static long createArray(ComputeThread thread, RemoteAllocator allocator, int slots, int arrayNode) {
        if (slots < 1 || 8L * slots > thread.config().bufferSizePerThread()) {
            throw new BadArgumentException("a slot array needs 1.." + thread.config().bufferSizePerThread() / 8
                    + " slots (8 bytes each, written through the thread's buffer), got " + slots);
        }
        long[] words = new long[slots];
        long a = allocator.allocate(8L * slots, arrayNode);
        ChurnWorkload filler = new ChurnWorkload(thread, allocator, new NeverReclaimer(thread), a, slots,
                0, 0, 1);
        for (int i = 0; i < slots; i++) {
            words[i] = filler.newNode(i, i);
        }
        thread.write(a, MemorySegment.ofArray(words));
        return a;
    }

    /** Runs one operation, a read or a replace, inside a guard. */
    public void op() {
        int i = random.nextInt(slots);
        boolean read = random.nextInt(100) < readPercent;
        try (Guard g = reclaimer.enter()) {
            if (read) {
                read(g, i);
            } else {
                replace(i);
            }
        }
    }

    private void read(Guard g, int i) {
        long p = wholeSlot(i);
        if (RemotePtr.isNull(p)) {
            restarts++;
            return;
        }
        maybeYield();
        long before = thread.read(BlockHeader.address(p));
        maybeYield();
        thread.read(p, payloadSegment);
        maybeYield();
        long after = thread.read(BlockHeader.address(p));
        if (!g.valid()) {
            restarts++;
            return;
        }
        reads++;
        String problem = null;
        if (payload[0] == SimOptions.POISON || payload[3] == SimOptions.POISON) {
            problem = "poisoned payload";
        } else if (!BlockHeader.isHeaderOf(p, before) || BlockHeader.state(before) != BlockHeader.ALLOCATED) {
            problem = "header before the payload is " + BlockHeader.describe(before);
        } else if (after != before) {
            problem = "header changed while the payload was read: " + BlockHeader.describe(before) + " then "
                    + BlockHeader.describe(after);
        } else if (payload[1] != Integer.toUnsignedLong(BlockHeader.incarnation(before))) {
            problem = "payload written in incarnation " + payload[1] + ", header in " + BlockHeader.describe(before);
        } else if (payload[2] != i) {
            problem = "payload of slot " + payload[2];
        } else if (payload[3] != checksum(p, payload[0], payload[1], payload[2])) {
            problem = "checksum mismatch";
        }
        if (problem != null) {
            violations++;
            if (firstViolation == null) {
                firstViolation = "slot " + i + " -> " + RemotePtr.toString(p) + ": " + problem;
            }
        }
    }

    private void replace(int i) {
        long word = slot(i);
        long old = thread.read(word);
        maybeYield();
        long q = newNode(i, random.nextLong());
        maybeYield();
        if (thread.compareAndSwap(word, old, q) == old) {
            replaces++;
            reclaimer.retire(old, NODE_BYTES);
        } else {
            failedReplaces++;
            allocator.deallocate(q, NODE_BYTES);
        }
    }

    private long newNode(int i, long value) {
        long q = allocator.allocate(NODE_BYTES, node);
        long incarnation = Integer.toUnsignedLong(BlockHeader.incarnation(thread.read(BlockHeader.address(q))));
        payload[0] = value;
        payload[1] = incarnation;
        payload[2] = i;
        payload[3] = checksum(q, value, incarnation, i);
        thread.write(q, payloadSegment);
        return q;
    }

    /**
     * Reads slot i whole: RDMA READs until two in a row agree. A NIC that copies a READ's payload in
     * pieces (Soft-RoCE) can return a pointer that a compare-and-swap stores meanwhile half old and
     * half new, a pointer that was never in the slot; the second READ starts after the first one's
     * copy ended, so two equal values were read whole. A slot of this thread's node is one CPU read.
     *
     * @return the slot's pointer, or NULL when it changed in every one of {@value #STABLE_READ_ATTEMPTS}
     *         READs (the operation then restarts)
     */
    private long wholeSlot(int i) {
        long word = slot(i);
        long p = thread.read(word);
        if (RemotePtr.node(word) == thread.nodeId()) {
            return p;
        }
        for (int k = 0; k < STABLE_READ_ATTEMPTS; k++) {
            long q = thread.read(word);
            if (q == p) {
                return p;
            }
            p = q;
        }
        return RemotePtr.NULL;
    }

    private long slot(int i) {
        return RemotePtr.offset(array, 8L * i);
    }

    private void maybeYield() {
        if (yieldPercent > 0 && random.nextInt(100) < yieldPercent) {
            Thread.yield();
        }
    }

    private static int homeNode(ComputeThread thread) {
        var memoryNodes = thread.config().memoryNodes();
        return memoryNodes.contains(thread.nodeId()) ? thread.nodeId() : memoryNodes.first();
    }

    private static long checksum(long p, long value, long incarnation, long slot) {
        long h = p * 0x9E3779B97F4A7C15L ^ value;
        h = (h ^ (h >>> 31)) * 0xBF58476D1CE4E5B9L ^ incarnation;
        h = (h ^ (h >>> 29)) * 0x94D049BB133111EBL ^ slot;
        return h ^ (h >>> 32);
    }

    /** {@return checked reads} */
    public long reads() {
        return reads;
    }

    /** {@return successful replaces (each retired a node)} */
    public long replaces() {
        return replaces;
    }

    /** {@return replaces that lost their compare-and-swap (their new node was freed at once)} */
    public long failedReplaces() {
        return failedReplaces;
    }

    /** {@return reads not checked because the guard's lease ran out, or the slot changed in every READ} */
    public long restarts() {
        return restarts;
    }

    /** {@return reads that found freed or reused memory} */
    public long violations() {
        return violations;
    }

    /** {@return what the first violation found, or null} */
    public String firstViolation() {
        return firstViolation;
    }
}
