package io.remus.core.fabric;

import java.time.Duration;
import java.util.List;

/**
 * An RDMA transport: opens the nodes of a cluster and tells each node what memory its peers
 * publish. Implementations: the embedded simulator ({@code io.remus.core.sim.SimFabric}) and, later,
 * verbs.
 */
public interface Fabric extends AutoCloseable {
    /** {@return a short name for reports, e.g. {@code "sim"} or {@code "verbs"}} */
    String name();

    /**
     * Opens this process's view of node {@code nodeId}.
     *
     * @param nodeId the node, 0 to 65535
     * @return the node, owned by the caller
     * @throws io.remus.core.error.BadArgumentException when the id is out of range or already open
     */
    FabricNode open(int nodeId);

    /**
     * The regions node {@code nodeId} published, in publication order.
     *
     * @param nodeId any node id
     * @return its published regions; empty when the node is unknown or published nothing
     */
    List<RemoteRegion> publishedRegions(int nodeId);

    /**
     * {@link #publishedRegions(int)} with the caller's bound on reaching a node it reached before and
     * lost (a fabric whose look-ups do not wait ignores it).
     *
     * @param nodeId  any node id
     * @param timeout how long reaching a node of another process that was reached before may take
     * @return its published regions; empty when the node is unknown or published nothing
     */
    default List<RemoteRegion> publishedRegions(int nodeId, Duration timeout) {
        return publishedRegions(nodeId);
    }

    /** Closes every node this fabric opened. Idempotent. */
    @Override
    void close();
}
