package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.Plane;
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
        return newComputeThread(Plane.DEFAULT);
    }

    /**
     * As {@link #newComputeThread()}, for a thread whose queue pairs connect on plane {@code plane}: a peer switches
     * what they may do apart from this node's other planes ({@link #setPeerAccess(int, int, PeerAccess)}). Mu
     * (Aguilera et al., OSDI 2020) replicates on queue pairs of their own: a replicated log's leader writes into
     * its replicas from a thread of {@link Plane#REPLICATION}, so that a replica that revokes it still takes its
     * RPC and its other one-sided operations ({@link Plane#DEFAULT}).
     *
     * @param plane the plane, {@code 0} to {@code Plane.COUNT - 1}
     * @return the thread, closed with this node at the latest
     * @throws BadArgumentException naming the plane when it is out of range (checked first), or when this node is
     *                              not a compute node
     */
    public ComputeThread newComputeThread(int plane) {
        Plane.require(plane);
        if (!config.isComputeNode()) {
            throw new BadArgumentException("node " + config.nodeId() + " is not a compute node (" + config.computeNodes() + ")");
        }
        List<RegisteredMemory> local = memoryNode == null ? List.of() : memoryNode.segments();
        return new ComputeThread(fabric, fabricNode, config, local, computeThreads.getAndIncrement(), plane);
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
     * As {@link #setPeerAccess(int, PeerAccess)}, for the peer's queue pairs of plane {@code plane} only
     * ({@link FabricNode#setPeerAccess(int, int, PeerAccess)}): a replica revokes a deposed leader's
     * {@link Plane#REPLICATION} writes and keeps serving its {@link Plane#DEFAULT} ones (RPC, other objects).
     * No RDMA operation; on verbs one {@code ibv_modify_qp} per serving queue pair of that peer and plane.
     *
     * @param peerNodeId another node of the cluster
     * @param plane      the plane, {@code 0} to {@code Plane.COUNT - 1}
     * @param access     what the peer's queue pairs of that plane may do; every plane starts {@link PeerAccess#READ_WRITE}
     * @throws BadArgumentException naming the plane or the peer when it is out of range, or the peer when it is this node
     */
    public void setPeerAccess(int peerNodeId, int plane, PeerAccess access) {
        fabricNode.setPeerAccess(peerNodeId, plane, access);
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
