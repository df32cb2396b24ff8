package io.remus.core.rpc;

import java.time.Duration;

/**
 * Where an {@link RpcEndpoint} finds a peer's rings: those that one incarnation of the peer's node
 * ({@link io.remus.core.fabric.FabricNode#incarnation()}) published. The endpoint asks when it connects
 * ({@link RpcEndpoint#connect(int, Duration)}) and again when a queue pair to the peer, reset after a loss, reaches
 * another incarnation: a process killed and started again has new memory and so new rings.
 * {@link io.remus.core.RemusCluster#openRpcEndpoint} gives its endpoint one over the cluster's name directory.
 */
@FunctionalInterface
public interface RingResolver {
    /**
     * The rings incarnation {@code incarnation} of node {@code peer} published, waiting for them up to
     * {@code timeout}. Called on the endpoint's thread; blocking, bounded by {@code timeout}; its RDMA operations are
     * the implementation's (the cluster's: a name lookup's READs and one READ).
     *
     * @param peer        the peer's node id
     * @param incarnation the incarnation the endpoint's queue pair to the peer reached
     * @param timeout     the longest wait, zero (look once) or positive
     * @return the rings, or null when that incarnation has not published them by the deadline
     * @throws io.remus.core.error.RemusException when the rings cannot be looked up (the endpoint treats it as a
     *                                            peer not yet reachable)
     */
    io.remus.core.fabric.RemoteRegion rings(int peer, long incarnation, Duration timeout);
}
