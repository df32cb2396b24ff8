package io.remus.core.verbs.bootstrap;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import java.util.List;
import java.util.Objects;

/**
 * The regions a node publishes, as its peers read them over an rdma_cm connection
 * ({@link RegionTableCodec}).
 *
 * @param nodeId  the publishing node
 * @param regions its published regions, every one owned by {@code nodeId}
 */
public record RegionTable(int nodeId, List<RemoteRegion> regions) {
    /** Validates the table. */
    public RegionTable {
        if (nodeId < 0 || nodeId > RemotePtr.MAX_NODE_ID) {
            throw new BadArgumentException("node id " + nodeId + " is outside 0.." + RemotePtr.MAX_NODE_ID);
        }
        regions = List.copyOf(Objects.requireNonNull(regions, "regions"));
        for (RemoteRegion r : regions) {
            if (r.nodeId() != nodeId) {
                throw new BadArgumentException("node " + nodeId + "'s table holds a region of node " + r.nodeId());
            }
        }
    }
}
