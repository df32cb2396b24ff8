package io.remus.alock.queue;

import io.remus.alock.LockUsageException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A thread's queue nodes, on its own node: one per lock it may hold or wait for at once. A node
 * is reusable as soon as the lock it queued for is released (an MCS or ALock releaser is the last
 * to touch its own node). Not thread-safe.
 */
public final class QueueNodePool {
    private final long[] free;
    private final long first;
    private final MemorySegment[] views;
    private int count;

    /**
     * Allocates {@code size} queue nodes on the thread's node.
     *
     * @param thread the owning compute thread
     * @param size   how many
     * @throws io.remus.core.BadArgumentException when the thread's node is not a memory node
     */
    public QueueNodePool(ComputeThread thread, int size) {
        Objects.requireNonNull(thread, "thread");
        long block = thread.allocator().allocate((long) (size + 1) * QueueNode.SIZE, thread.nodeId());
        long misalignment = RemotePtr.address(block) & (QueueNode.SIZE - 1);
        first = misalignment == 0 ? block : RemotePtr.offset(block, QueueNode.SIZE - misalignment);
        free = new long[size];
        views = new MemorySegment[size];
        for (int i = 0; i < size; i++) {
            long node = RemotePtr.offset(first, (long) i * QueueNode.SIZE);
            free[size - 1 - i] = node;
            views[i] = thread.localSegment(node, QueueNode.SIZE);
            views[i].fill((byte) 0); // PARKED starts 0; no lock references the node yet
        }
        count = size;
    }

    /**
     * {@return a free queue node}
     * @throws LockUsageException when every node is in use (too many locks held at once)
     */
    public long take() {
        if (count == 0) {
            throw new LockUsageException("this thread already holds or waits for " + free.length
                    + " queue locks (LockOptions.maxHeldLocks)");
        }
        return free[--count];
    }

    /**
     * Gives the CPU view of a node.
     *
     * @param node a node of this pool
     * @return the CPU view of it, made once (the local paths allocate nothing per operation)
     */
    public MemorySegment view(long node) {
        return views[(int) ((RemotePtr.address(node) - RemotePtr.address(first)) / QueueNode.SIZE)];
    }

    /**
     * Returns a node to the pool.
     *
     * @param node a node from {@link #take()} that no lock references any more
     */
    public void give(long node) {
        free[count++] = node;
    }
}
