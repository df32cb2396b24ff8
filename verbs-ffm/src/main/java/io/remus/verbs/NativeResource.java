package io.remus.verbs;

import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The lifetime every owner of a native verbs object shares: one shared {@link Arena} for its
 * preallocated native structs, a count of open children, an idempotent {@link #close()} that
 * refuses while children are open, and release of its parents once destroyed.
 *
 * <p><b>Native calls against close.</b> A method that hands this resource's native pointer to a
 * native function brackets the call with {@link #enter()} and {@link #exit()}. One state word holds
 * a closing bit and the number of such calls in flight: {@code enter} adds one with a
 * compare-and-set unless the closing bit is set (then it throws {@link ClosedResourceException}),
 * {@code exit} takes it away. {@link #close()} sets the closing bit, so no new call starts, and
 * waits until the calls in flight have returned before it destroys the native object: a close on
 * one thread never frees the object under a post, poll or query on another, and that call sees
 * either the open object or a {@link ClosedResourceException}. The bracketed calls never block
 * (posts, polls, queries, non-blocking event reads), so the wait is bounded by their length.
 * {@code enter} and {@code exit} allocate nothing (one compare-and-set and one atomic add).
 */
abstract class NativeResource implements AutoCloseable {
    private static final VarHandle STATE;
    private static final int CLOSING = 1 << 31;
    private static final int IN_FLIGHT = ~CLOSING;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeResource.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Where this resource's preallocated native structs live; closed with it. */
    final Arena arena = Arena.ofShared();
    private final String kind;
    private final NativeResource[] parents;
    private int children;
    private volatile boolean closed;
    /** {@link #CLOSING} bit and the count of native calls in flight ({@link #enter()}). */
    private volatile int state;

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
        if (state < 0 || closed) {
            throw closedException();
        }
    }

    /**
     * Starts a native call that uses this resource's native object: from here until the matching
     * {@link #exit()} a concurrent {@link #close()} waits instead of destroying it. Call
     * {@code exit()} in a {@code finally} block. Allocates nothing unless it throws.
     *
     * @throws ClosedResourceException if this resource is closed or closing
     */
    final void enter() {
        int s;
        do {
            s = state;
            if (s < 0) {
                throw closedException();
            }
        } while (!STATE.weakCompareAndSet(this, s, s + 1));
    }

    /** Ends a native call started with {@link #enter()}. */
    final void exit() {
        STATE.getAndAdd(this, -1);
    }

    /** {@return how many native calls are between {@link #enter()} and {@link #exit()} now} */
    final int callsInFlight() {
        return state & IN_FLIGHT;
    }

    private ClosedResourceException closedException() {
        return new ClosedResourceException(kind + " is closed");
    }

    /**
     * Destroys the native object and frees this resource's native memory; does nothing when
     * already closed. Safe against calls on other threads: it first stops new native calls on
     * this resource (they throw {@link ClosedResourceException}), then waits for the ones in
     * flight to return (they never block), then destroys the object. May be called from any
     * thread, and by several at once: one of them closes, the others return at once or wait for
     * it.
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
            STATE.getAndBitwiseOr(this, CLOSING);
            for (int spins = 0; callsInFlight() != 0; spins++) {
                if (spins < 1_000) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(10_000);
                }
            }
            try {
                destroy();
            } catch (RuntimeException e) {
                STATE.getAndBitwiseAnd(this, IN_FLIGHT);
                throw e;
            }
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
