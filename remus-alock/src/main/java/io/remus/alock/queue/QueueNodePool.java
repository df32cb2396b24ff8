package io.remus.alock.queue;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;

/**
 * A thread's queue nodes, on its own node: at most {@code size} in use at once, one per lock it holds or
 * waits for. A node is free again as soon as no one references it ({@link #give}); a node that a neighbour in
 * the queue may still touch is {@linkplain #defer deferred}: it counts as not in use, and is reclaimed once the
 * lock has passed it ({@link QueueNode#PASSED} or {@link QueueNode#ACKNOWLEDGED}), when {@link #take()} finds no
 * free node. A deferred node behind a holder that never releases is never reclaimed; when every node is in use
 * or deferred, {@link #take()} allocates {@code size} more, so that waits that time out never cost the thread
 * its allowance. Not thread-safe.
 */
public final class QueueNodePool {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final ComputeThread thread;
    private final int size;
    private final LocalWords localWords;
    private long[] free;
    private int count;
    private long[] deferred = new long[0];
    private int deferredCount;
    private int inUse;
    private long[] chunkFirst = new long[0];
    private MemorySegment[][] chunkViews = new MemorySegment[0][];

    /**
     * Allocates {@code size} queue nodes on the thread's node.
     *
     * @param thread the owning compute thread
     * @param size   how many may be in use at once
     * @throws io.remus.core.error.BadArgumentException when the thread's node is not a memory node
     */
    public QueueNodePool(ComputeThread thread, int size) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.size = size;
        this.localWords = new LocalWords(thread);
        this.free = new long[size];
        grow();
    }

    private void grow() {
        long block = thread.allocator().allocate((long) (size + 1) * QueueNode.SIZE, thread.nodeId());
        long misalignment = RemotePtr.address(block) & (QueueNode.SIZE - 1);
        long first = misalignment == 0 ? block : RemotePtr.offset(block, QueueNode.SIZE - misalignment);
        MemorySegment[] views = new MemorySegment[size];
        if (free.length < count + size) {
            free = Arrays.copyOf(free, count + size);
        }
        for (int i = 0; i < size; i++) {
            long node = RemotePtr.offset(first, (long) i * QueueNode.SIZE);
            free[count + size - 1 - i] = node;
            views[i] = thread.localSegment(node, QueueNode.SIZE);
            views[i].fill((byte) 0); // PARKED starts 0; no lock references the node yet
        }
        count += size;
        int chunks = chunkFirst.length;
        chunkFirst = Arrays.copyOf(chunkFirst, chunks + 1);
        chunkViews = Arrays.copyOf(chunkViews, chunks + 1);
        chunkFirst[chunks] = first;
        chunkViews[chunks] = views;
    }

    /**
     * Takes a free queue node, reclaiming deferred ones the lock has passed, or allocating more, when none is
     * free.
     *
     * @return the node, or 0 (never a node) when {@code size} nodes are in use: too many locks held or awaited
     *         at once, which the queue lock reports as {@link io.remus.alock.LockUsageException}
     */
    public long take() {
        if (inUse == size) {
            return 0;
        }
        if (count == 0) {
            reclaim();
            if (count == 0) {
                grow();
            }
        }
        inUse++;
        return free[--count];
    }

    /**
     * Gives the CPU view of a node.
     *
     * @param node a node of this pool
     * @return the CPU view of it, made once (the local paths allocate nothing per operation)
     */
    public MemorySegment view(long node) {
        long address = RemotePtr.address(node);
        for (int c = 0; c < chunkFirst.length; c++) {
            long index = (address - RemotePtr.address(chunkFirst[c])) / QueueNode.SIZE;
            if (address >= RemotePtr.address(chunkFirst[c]) && index < size) {
                return chunkViews[c][(int) index];
            }
        }
        throw new IllegalArgumentException("queue node " + RemotePtr.toString(node) + " is not of this pool");
    }

    /** {@return how many nodes may be in use at once} */
    public int size() {
        return size;
    }

    /** {@return CPU atomics on words of this thread's node, for queue nodes of its other threads} */
    public LocalWords localWords() {
        return localWords;
    }

    /**
     * Returns a node to the pool.
     *
     * @param node a node from {@link #take()} that no lock references any more
     */
    public void give(long node) {
        if (free.length == count) {
            free = Arrays.copyOf(free, count + size);
        }
        free[count++] = node;
        inUse--;
    }

    /**
     * Gives back a node from {@link #take()} that a queue may still reference: it is reused only once its budget
     * reads {@link QueueNode#PASSED} or its next {@link QueueNode#ACKNOWLEDGED}, the last store anyone makes into
     * it.
     *
     * @param node the node
     */
    public void defer(long node) {
        if (deferred.length == deferredCount) {
            deferred = Arrays.copyOf(deferred, deferredCount + size);
        }
        deferred[deferredCount++] = node;
        inUse--;
    }

    /** {@return how many nodes wait for a lock to pass them before they can be reused} */
    public int deferredCount() {
        return deferredCount;
    }

    private void reclaim() {
        int kept = 0;
        for (int i = 0; i < deferredCount; i++) {
            long node = deferred[i];
            MemorySegment v = view(node);
            if ((long) WORD.getVolatile(v, QueueNode.BUDGET) == QueueNode.PASSED
                    || (long) WORD.getVolatile(v, QueueNode.NEXT) == QueueNode.ACKNOWLEDGED) {
                if (free.length == count) {
                    free = Arrays.copyOf(free, count + size);
                }
                free[count++] = node;
            } else {
                deferred[kept++] = node;
            }
        }
        deferredCount = kept;
    }
}
