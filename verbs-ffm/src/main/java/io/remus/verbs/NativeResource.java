package io.remus.verbs;

import java.lang.foreign.Arena;

/**
 * The lifetime every owner of a native verbs object shares: one shared {@link Arena} for its
 * preallocated native structs, a count of open children, an idempotent {@link #close()} that
 * refuses while children are open, and release of its parents once destroyed.
 */
abstract class NativeResource implements AutoCloseable {
    /** Where this resource's preallocated native structs live; closed with it. */
    final Arena arena = Arena.ofShared();
    private final String kind;
    private final NativeResource[] parents;
    private int children;
    private volatile boolean closed;

    /**
     * Registers the new resource as a child of each parent.
     *
     * @param kind    what it is, for messages
     * @param parents the resources it was created from (nulls ignored)
     * @throws ClosedResourceException if a parent is closed
     */
    NativeResource(String kind, NativeResource... parents) {
        this.kind = kind;
        int n = 0;
        for (NativeResource p : parents) {
            if (p != null) {
                n++;
            }
        }
        this.parents = new NativeResource[n];
        int i = 0;
        try {
            for (NativeResource p : parents) {
                if (p != null) {
                    p.retain();
                    this.parents[i++] = p;
                }
            }
        } catch (RuntimeException e) {
            for (int j = 0; j < i; j++) {
                this.parents[j].release();
            }
            arena.close();
            throw e;
        }
    }

    /** Destroys the native object; called once, while no children are open. */
    abstract void destroy();

    /** {@return whether {@link #close()} has completed} */
    public final boolean isClosed() {
        return closed;
    }

    /**
     * @throws ClosedResourceException if this resource is closed
     */
    final void requireOpen() {
        if (closed) {
            throw new ClosedResourceException(kind + " is closed");
        }
    }

    /**
     * Destroys the native object and frees this resource's native memory; does nothing when
     * already closed.
     *
     * @throws ResourceBusyException if resources created from this one are still open
     * @throws VerbsException        if the destroy verb fails (the resource then stays open)
     */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (children > 0) {
                throw new ResourceBusyException(kind + " cannot close: " + children
                        + " resource(s) created from it are still open; close them first");
            }
            destroy();
            closed = true;
        }
        for (NativeResource p : parents) {
            p.release();
        }
        arena.close();
    }

    private synchronized void retain() {
        requireOpen();
        children++;
    }

    private synchronized void release() {
        children--;
    }

    @Override
    public String toString() {
        return kind + (closed ? " (closed)" : "");
    }
}
