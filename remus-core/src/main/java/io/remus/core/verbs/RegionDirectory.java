package io.remus.core.verbs;

import io.remus.core.fabric.RemoteRegion;
import io.remus.core.verbs.bootstrap.RegionTable;
import io.remus.core.verbs.bootstrap.RegionTableCodec;
import io.remus.verbs.Access;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.ProtectionDomain;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;

/**
 * A node's region table in registered memory (remote read only), in
 * {@link RegionTableCodec}'s format: rdma_cm peers are offered it in the connection's private
 * data and read it with one RDMA READ. Rewritten whenever the node publishes or withdraws a region.
 */
final class RegionDirectory implements AutoCloseable {
    /** The table's size: room for {@code RegionTableCodec.capacity(BYTES)} regions. */
    static final int BYTES = 4096;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    private final MemoryRegion region;

    RegionDirectory(ProtectionDomain pd, int nodeId) {
        try {
            memory = arena.allocate(BYTES, BYTES);
            region = pd.registerMemory(memory, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        update(nodeId, List.of());
    }

    /** Writes the table of {@code regions}; fails (leaving the old table) when they do not fit. */
    synchronized void update(int nodeId, List<RemoteRegion> regions) {
        byte[] bytes = RegionTableCodec.encode(new RegionTable(nodeId, regions), BYTES);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, 0, bytes.length);
    }

    /** {@return the table as the peer addresses it} */
    io.remus.verbs.RemoteRegion offer() {
        return region.toRemoteRegion();
    }

    @Override
    public void close() {
        try {
            region.close();
        } finally {
            arena.close();
        }
    }
}
