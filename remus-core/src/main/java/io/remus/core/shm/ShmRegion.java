package io.remus.core.shm;

import io.remus.core.fabric.RegisteredMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A registration of a node of this process: file-backed ({@link ShmNode#allocate}: a region file that
 * other processes map), or caller-owned memory ({@link ShmNode#register}: reachable only from this
 * process). Peers name its bytes by their address in this process.
 */
final class ShmRegion implements RegisteredMemory {
    private final ShmNode node;
    private final MemorySegment segment;
    /** The region file's header page, or null for caller-owned memory. */
    private final MemorySegment header;
    private final Path file;
    private final Arena arena;
    private final int lkey;
    private final int rkey;
    private volatile boolean closed;

    ShmRegion(ShmNode node, MemorySegment segment, MemorySegment header, Path file, Arena arena, int lkey, int rkey) {
        this.node = node;
        this.segment = segment;
        this.header = header;
        this.file = file;
        this.arena = arena;
        this.lkey = lkey;
        this.rkey = rkey;
    }

    ShmNode node() {
        return node;
    }

    /** {@return whether other processes can map it} */
    boolean shared() {
        return header != null;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long address() {
        return segment.address();
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

    /**
     * Deregisters: marks the region file deregistered (peers that mapped it get {@code REMOTE_ACCESS_ERROR}
     * from then on), removes it from the node's publications and the directory, and unmaps it here.
     * Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (header != null) {
            ShmFiles.WORD.setVolatile(header, ShmFiles.REGION_STATE, ShmFiles.DEREGISTERED);
        }
        node.deregister(this, file);
        if (arena != null) {
            arena.close();
        }
    }
}
