package io.remus.core.fabric;

/**
 * A reliable connected queue pair to one peer (verbs RC {@code ibv_qp}); owned by one thread at a
 * time. Work requests execute in posting order.
 */
public interface QueuePair extends AutoCloseable {
    /** {@return the node at the other end (this node's own id for the loopback QP)} */
    int peerNodeId();

    /**
     * {@return the incarnation of the peer node this queue pair was connected to when it was made or last
     * {@linkplain #reset reset}: that node's {@link FabricNode#incarnation()}; 0 where the fabric cannot tell}
     */
    default long peerIncarnation() {
        return 0;
    }

    /** {@return work requests the QP holds posted and not yet completed} */
    int sendQueueDepth();

    /**
     * Posts every entry of {@code requests} in order with one doorbell (verbs {@code ibv_post_send}
     * of a chained list). Allocates nothing. Each entry is one RDMA operation (a SEND or a
     * WRITE_WITH_IMMEDIATE is one message, consuming one receive at the peer). Progress: does not
     * wait, except that a {@link WorkRequests#FENCE}d entry on verbs waits for the earlier READs and
     * atomics, bounded by the connect timeout. Failures of individual requests arrive as error
     * completions.
     *
     * @param requests the list, unchanged by the call
     * @throws io.remus.core.error.BadArgumentException when the send queue has no room for all of them
     */
    void post(WorkRequests requests);

    /** {@return whether an error completion moved the QP to the error state} */
    boolean inError();

    /**
     * Returns an errored QP to service (verbs: a new queue pair, connected again). Call it only after every
     * request posted before the error has completed.
     *
     * @throws io.remus.core.error.PeerUnreachableException when the peer cannot be reached again (verbs: one
     *                                                       attempt bounded by the queue pair's wait timeout, or
     *                                                       none while the peer's back-off lasts); the QP stays in
     *                                                       error and a later call tries again
     */
    void reset();

    /** Destroys the QP. Idempotent. */
    @Override
    void close();
}
