package io.remus.alock;

import io.remus.alock.queue.ParkedWaiters;
import io.remus.alock.queue.QueueNodePool;
import io.remus.core.ComputeThread;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One compute thread's lock state: its options, its owner id (the value a spin lock stores), and
 * its pool of queue nodes on its own node, made on first use by a queue lock. Not thread-safe: it
 * and the lock handles opened with it belong to the Java thread that owns its {@link ComputeThread}
 * (the first that used it), which {@link #checkOpen()} enforces.
 */
public final class LockContext {
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private final ComputeThread thread;
    private final LockOptions options;
    private final long ownerId;
    private QueueNodePool queueNodes;
    private long parkToken;

    /**
     * Creates the lock context of a compute thread.
     *
     * @param thread  the compute thread every lock operation goes through
     * @param options the lock knobs
     * @throws NullPointerException when {@code thread} or {@code options} is null
     */
    public LockContext(ComputeThread thread, LockOptions options) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.options = Objects.requireNonNull(options, "options");
        this.ownerId = ((long) (thread.nodeId() + 1) << 32) | (SERIAL.incrementAndGet() & 0xFFFF_FFFFL);
    }

    /** {@return the compute thread} */
    public ComputeThread thread() {
        return thread;
    }

    /** {@return the options} */
    public LockOptions options() {
        return options;
    }

    /** {@return a non-zero id unique among the contexts of this JVM, with the node id in its high half} */
    public long ownerId() {
        return ownerId;
    }

    /**
     * {@return the pool of queue nodes on this thread's node, allocated on first use}
     * @throws io.remus.core.error.BadArgumentException when this thread's node is not a memory node
     */
    public QueueNodePool queueNodes() {
        if (queueNodes == null) {
            queueNodes = new QueueNodePool(thread, options.maxHeldLocks());
        }
        return queueNodes;
    }

    /**
     * {@return the calling thread's {@link ParkedWaiters} token, registered on first use (the context belongs to
     *         one Java thread, {@link #checkOpen()})}
     */
    public long parkToken() {
        if (parkToken == 0) {
            parkToken = ParkedWaiters.register(Thread.currentThread());
        }
        return parkToken;
    }

    /**
     * Checks that the compute thread can still be used, and by the calling Java thread: the lock
     * handles call it on entry of every lock and unlock, so a handle used from a Java thread other
     * than its compute thread's owner is refused before it changes anything (ALock's local path
     * never goes through the compute thread's operations, so this is its only check). One
     * comparison once the owner is bound.
     *
     * @throws LockUsageException                              when the compute thread is closed
     * @throws io.remus.core.error.ThreadConfinementException when another Java thread owns the compute thread
     */
    public void checkOpen() {
        if (thread.isClosed()) {
            throw new LockUsageException("compute thread of node " + thread.nodeId() + " is closed");
        }
        thread.checkOwnerThread();
    }
}
