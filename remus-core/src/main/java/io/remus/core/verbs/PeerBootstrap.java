package io.remus.core.verbs;

import io.remus.core.fabric.RemoteRegion;
import io.remus.verbs.QueuePairBuilder;

import java.time.Duration;
import java.util.List;

/** How a {@link VerbsFabric} reaches nodes of other processes: one per {@link BootstrapKind}. */
interface PeerBootstrap extends AutoCloseable {
    /** Starts answering peers on behalf of {@code node}, at its address. */
    void serve(VerbsNode node);

    /** Stops answering for {@code node}; waits (bounded) until no request is being served for it. */
    void stopServing(VerbsNode node);

    /**
     * @param nodeId         a node of another process
     * @param attemptTimeout the bound on connecting and reading when that node was reached before
     *                       ({@link PeerReachability}); a node never reached gets the connect timeout
     * @return the regions node {@code nodeId} publishes now
     */
    List<RemoteRegion> publishedRegions(int nodeId, Duration attemptTimeout);

    /**
     * @param from           the requesting node of this process
     * @param peer           a node of another process
     * @param plane          the plane of the requester's queue pair, which the serving queue pair keeps
     * @param builder        the requester's queue pair settings
     * @param attemptTimeout the bound on one attempt when {@code peer} was reached before
     *                       ({@link PeerReachability}); a peer never reached gets the connect timeout
     * @return a queue pair of {@code from} connected to one that {@code peer} serves
     */
    PeerConnection connect(VerbsNode from, int peer, int plane, QueuePairBuilder builder, Duration attemptTimeout);

    /** Stops every service and closes what the bootstrap holds. Idempotent. */
    @Override
    void close();
}
