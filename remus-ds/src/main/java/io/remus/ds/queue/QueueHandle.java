package io.remus.ds.queue;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.ds.identity.StructureIdentity;

import java.time.Duration;
import java.util.Objects;

/**
 * One handle's open or closed state on an MPMC queue's root, and its close and destroy through the root's
 * {@link StructureIdentity}: once this handle is closed or destroyed its queue, every call but a close throws
 * {@link ClosedQueueException}. Used by the handle's owner only, like its compute thread.
 */
final class QueueHandle {
    private final ComputeThread thread;
    private final StructureIdentity identity;
    private final long rootBytes;
    private boolean closed;

    /**
     * @param rootBytes bytes of the queue's root, as given to {@link StructureIdentity#allocate}
     */
    QueueHandle(ComputeThread thread, StructureIdentity identity, long rootBytes) {
        this.thread = thread;
        this.identity = identity;
        this.rootBytes = rootBytes;
    }

    /** Throws {@link ClosedQueueException} when the handle is closed or destroyed its queue. */
    void requireOpen() {
        if (closed) {
            throw new ClosedQueueException("handle of queue " + RemotePtr.toString(identity.ptr()) + " is closed");
        }
    }

    /**
     * The deadline of a call with {@code patience} (at most a year) from now, once the patience is given, the
     * handle open ({@link ClosedQueueException}) and the patience not negative ({@link BadArgumentException}).
     */
    long deadline(Duration patience) {
        Objects.requireNonNull(patience, "patience");
        requireOpen();
        if (patience.isNegative()) {
            throw new BadArgumentException("patience must not be negative, got " + patience);
        }
        long now = System.nanoTime();
        long nanos = patience.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : patience.toNanos();
        return now + nanos;
    }

    /** Closes the handle ({@link StructureIdentity#close}) unless it already was; idempotent. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        identity.close(thread, rootBytes, () -> { });
    }

    /**
     * Destroys the queue and closes the handle ({@link StructureIdentity#destroy}).
     *
     * @throws ClosedQueueException when the handle is closed, or another handle destroyed the queue first
     */
    void destroy() {
        requireOpen();
        closed = true;
        identity.destroy(thread, rootBytes, () -> { });
    }
}
