package io.remus.core.verbs;

import io.remus.core.fabric.RegisteredMemory;
import io.remus.verbs.MemoryRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A node's registration: a verbs memory region, and the arena of the memory when the node allocated it. */
final class VerbsMemory implements RegisteredMemory {
    private final VerbsNode node;
    private final MemoryRegion region;
    private final Arena arena;
    private final long address;
    private final long length;
    private final int lkey;
    private final int rkey;
    private volatile boolean closed;

    VerbsMemory(VerbsNode node, MemoryRegion region, Arena arena) {
        this.node = node;
        this.region = region;
        this.arena = arena;
        this.address = region.address();
        this.length = region.length();
        this.lkey = region.localKey();
        this.rkey = region.remoteKey();
    }

    VerbsNode node() {
        return node;
    }

    MemoryRegion region() {
        return region;
    }

    @Override
    public MemorySegment segment() {
        return region.segment();
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    /** {@return whether it has been closed (deregistered)} */
    boolean isClosed() {
        return closed;
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
        region.close();
        if (arena != null) {
            arena.close();
        }
    }
}
