package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.RegisteredMemory;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * This process's node of a Remus cluster: its fabric node, its memory node when the configuration
 * makes it one (segments with control blocks, published to peers), and the compute threads it
 * creates when it is a compute node.
 */
public final class RemusNode implements AutoCloseable {
    private final Fabric fabric;
    private final ClusterConfig config;
    private final FabricNode fabricNode;
    private final MemoryNode memoryNode;
    private final AtomicInteger computeThreads = new AtomicInteger();

    private RemusNode(Fabric fabric, ClusterConfig config) {
        this.fabric = fabric;
        this.config = config;
        this.fabricNode = fabric.open(config.nodeId());
        this.memoryNode = config.isMemoryNode() ? new MemoryNode(fabricNode, config) : null;
    }

    /**
     * Opens node {@code config.nodeId()} on {@code fabric}, and sets up and publishes its memory
     * segments when it is a memory node.
     *
     * @param fabric the fabric
     * @param config the cluster configuration as this node sees it
     * @return the started node
     */
    public static RemusNode start(Fabric fabric, ClusterConfig config) {
        return new RemusNode(fabric, config);
    }

    /** {@return the configuration} */
    public ClusterConfig config() {
        return config;
    }

    /** {@return this node's memory node, when it is one} */
    public Optional<MemoryNode> memoryNode() {
        return Optional.ofNullable(memoryNode);
    }

    /**
     * Creates a compute thread for one application thread: it belongs to the first Java thread that
     * uses it, which may be another than the creating one (see {@link ComputeThread}).
     *
     * @return the thread, closed with this node at the latest
     * @throws BadArgumentException when this node is not a compute node
     */
    public ComputeThread newComputeThread() {
        if (!config.isComputeNode()) {
            throw new BadArgumentException("node " + config.nodeId() + " is not a compute node (" + config.computeNodes() + ")");
        }
        List<RegisteredMemory> local = memoryNode == null ? List.of() : memoryNode.segments();
        return new ComputeThread(fabric, fabricNode, config, local, computeThreads.getAndIncrement());
    }

    /**
     * Switches what node {@code peerNodeId}'s compute threads may do to this node's memory: Mu's permission
     * switch (Aguilera et al., OSDI 2020), as {@link FabricNode#setPeerAccess}. A replica revokes a deposed
     * leader's writes ({@link PeerAccess#READ_ONLY}) before it grants the new leader's
     * ({@link PeerAccess#READ_WRITE}); once this returns, the peer's WRITEs and atomics on this node are
     * refused (its compute thread throws {@link io.remus.core.error.RemoteAccessException} naming this node
     * and goes on with its next operation) and its READs still succeed. No RDMA operation; on verbs one
     * {@code ibv_modify_qp} per serving queue pair of that peer.
     *
     * @param peerNodeId another node of the cluster
     * @param access     what it may do; every peer starts {@link PeerAccess#READ_WRITE}
     * @throws BadArgumentException naming the peer when it is out of range or this node
     */
    public void setPeerAccess(int peerNodeId, PeerAccess access) {
        fabricNode.setPeerAccess(peerNodeId, access);
    }

    /**
     * {@return the node's fabric node: what an {@link io.remus.core.rpc.RpcEndpoint} of this node is created on
     *          ({@code RpcEndpoint.create(node.fabricNode(), ...)}, which takes the node's one receive queue), so that
     *          the node's messages and its compute threads' one-sided operations share one fabric node}
     */
    public FabricNode fabricNode() {
        return fabricNode;
    }

    /** Closes the node's memory and fabric node; compute threads must be closed by their own threads first. */
    @Override
    public void close() {
        if (memoryNode != null) {
            memoryNode.close();
        }
        fabricNode.close();
    }
}
