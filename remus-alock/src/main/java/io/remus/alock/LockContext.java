package io.remus.alock;

import io.remus.alock.queue.QueueNodePool;
import io.remus.core.ComputeThread;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One compute thread's lock state: its options, its owner id (the value a spin lock stores), and
 * its pool of queue nodes on its own node, made on first use by a queue lock. Not thread-safe: it
 * belongs to the thread of its {@link ComputeThread}.
 */
public final class LockContext {
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private final ComputeThread thread;
    private final LockOptions options;
    private final long ownerId;
    private QueueNodePool queueNodes;

    /**
     * @param thread  the compute thread every lock operation goes through
     * @param options the lock knobs
     */
    public LockContext(ComputeThread thread, LockOptions options) {
        this.thread = thread;
        this.options = options;
        this.ownerId = ((long) (thread.nodeId() + 1) << 32) | (SERIAL.incrementAndGet() & 0xFFFF_FFFFL);
    }

    /** @return the compute thread */
    public ComputeThread thread() {
        return thread;
    }

    /** @return the options */
    public LockOptions options() {
        return options;
    }

    /** @return a non-zero id unique among the contexts of this JVM, with the node id in its high half */
    public long ownerId() {
        return ownerId;
    }

    /**
     * @return the pool of queue nodes on this thread's node, allocated on first use
     * @throws io.remus.core.BadArgumentException when this thread's node is not a memory node
     */
    public QueueNodePool queueNodes() {
        if (queueNodes == null) {
            queueNodes = new QueueNodePool(thread, options.maxHeldLocks());
        }
        return queueNodes;
    }

    /**
     * Checks that the compute thread can still be used.
     *
     * @throws LockUsageException when it is closed
     */
    public void checkOpen() {
        if (thread.isClosed()) {
            throw new LockUsageException("compute thread of node " + thread.nodeId() + " is closed");
        }
    }
}
