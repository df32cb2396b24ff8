package io.remus.core.fabric;

import java.lang.foreign.MemorySegment;

/**
 * The part of a {@link RegisteredMemory} every fabric implementation keeps alike (for fabric
 * implementations): the registered segment, the address and length peers name it by, its keys, and
 * a close that deregisters once. A subclass says what deregistering does in {@link #deregister()}.
 */
public abstract class Registration implements RegisteredMemory {
    private final MemorySegment segment;
    private final long address;
    private final long length;
    private final int lkey;
    private final int rkey;
    private volatile boolean closed;

    /**
     * Creates an open registration.
     *
     * @param segment the registered bytes
     * @param address the address of the first byte, as peers address it
     * @param length  the length in bytes
     * @param lkey    the local key
     * @param rkey    the remote key
     */
    protected Registration(MemorySegment segment, long address, long length, int lkey, int rkey) {
        this.segment = segment;
        this.address = address;
        this.length = length;
        this.lkey = lkey;
        this.rkey = rkey;
    }

    @Override
    public final MemorySegment segment() {
        return segment;
    }

    @Override
    public final long address() {
        return address;
    }

    @Override
    public final long length() {
        return length;
    }

    @Override
    public final int lkey() {
        return lkey;
    }

    @Override
    public final int rkey() {
        return rkey;
    }

    /** {@return whether it has been closed (deregistered)} */
    public final boolean isClosed() {
        return closed;
    }

    /** Deregisters through {@link #deregister()} on the first call; later calls do nothing. */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        deregister();
    }

    /** Deregisters: runs once, on the first {@link #close()}, after {@link #isClosed()} became true. */
    protected abstract void deregister();
}
