package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.ds.identity.StructureIdentity;

/**
 * One handle's open or closed state on an object's root, and its close and destroy through the root's
 * {@link StructureIdentity}: once this handle is closed or destroyed its object, every call but a close throws
 * {@link ClosedObjectException}. Used by the handle's owner only, like its compute thread.
 */
final class ObjectHandle {
    private final ComputeThread thread;
    private final StructureIdentity identity;
    private boolean closed;

    ObjectHandle(ComputeThread thread, StructureIdentity identity) {
        this.thread = thread;
        this.identity = identity;
    }

    /** Throws {@link ClosedObjectException} when the handle is closed or destroyed its object. */
    void requireOpen() {
        if (closed) {
            throw new ClosedObjectException("this handle on the " + identity + " is closed");
        }
    }

    /** Marks the handle closed; {@return false when it already was (a close then does nothing)} */
    boolean closeOnce() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    /** Marks the open handle closed for a destroy; throws {@link ClosedObjectException} when it already was. */
    void closeToDestroy() {
        requireOpen();
        closed = true;
    }

    /** Closes the handle ({@link StructureIdentity#close}) unless it already was; idempotent. */
    void close(long rootBytes, Runnable freeBlocks) {
        if (closeOnce()) {
            identity.close(thread, rootBytes, freeBlocks);
        }
    }

    /**
     * Destroys the object and closes the handle ({@link StructureIdentity#destroy}).
     *
     * @throws ClosedObjectException when the handle is closed, or another handle destroyed the object first
     */
    void destroy(long rootBytes, Runnable freeBlocks) {
        closeToDestroy();
        identity.destroy(thread, rootBytes, freeBlocks);
    }
}
