package io.remus.core.sim;

import io.remus.core.fabric.RegisteredMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A simulated memory registration: a native segment, the address work requests name it by (its native address,
 * or a simulated one: {@link SimOptions#straddleOffset()}), its keys, and the arena that owns it if any.
 */
final class SimRegion implements RegisteredMemory {
    private final SimNode node;
    private final MemorySegment segment;
    private final Arena arena;
    private final long address;
    private final int lkey;
    private final int rkey;
    private boolean closed;

    SimRegion(SimNode node, MemorySegment segment, long address, Arena arena, int lkey, int rkey) {
        this.node = node;
        this.segment = segment;
        this.arena = arena;
        this.address = address;
        this.lkey = lkey;
        this.rkey = rkey;
    }

    SimNode node() {
        return node;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long length() {
        return segment.byteSize();
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        node.deregister(this);
        if (arena != null) {
            arena.close();
        }
    }
}
