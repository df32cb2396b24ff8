package io.remus.core.shm;

import io.remus.core.fabric.Registration;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A registration of a node of this process: file-backed ({@link ShmNode#allocate}: a region file that
 * other processes map), or caller-owned memory ({@link ShmNode#register}: reachable only from this
 * process). Peers name its bytes by their address in this process.
 */
final class ShmRegion extends Registration {
    private final ShmNode node;
    /** The region file's header page, or null for caller-owned memory. */
    private final MemorySegment header;
    private final Path file;
    private final Arena arena;

    ShmRegion(ShmNode node, MemorySegment segment, MemorySegment header, Path file, Arena arena, int lkey, int rkey) {
        super(segment, segment.address(), segment.byteSize(), lkey, rkey);
        this.node = node;
        this.header = header;
        this.file = file;
        this.arena = arena;
    }

    ShmNode node() {
        return node;
    }

    /** {@return whether other processes can map it} */
    boolean shared() {
        return header != null;
    }

    /**
     * Deregisters: marks the region file deregistered (peers that mapped it get {@code REMOTE_ACCESS_ERROR}
     * from then on), removes it from the node's publications and the directory, and unmaps it here.
     */
    @Override
    protected void deregister() {
        if (header != null) {
            ShmFiles.WORD.setVolatile(header, ShmFiles.REGION_STATE, ShmFiles.DEREGISTERED);
        }
        node.deregister(this, file);
        if (arena != null) {
            arena.close();
        }
    }
}
