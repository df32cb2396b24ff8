package io.remus.core.fabric;

import io.remus.core.error.CompletionStatus;

/**
 * A node's receive queue (a verbs shared receive queue, {@code ibv_srq}): the receive buffers that
 * peers' {@link Opcode#SEND} and {@link Opcode#WRITE_WITH_IMMEDIATE} requests consume, oldest
 * first, whichever queue pair they come over. Each consumed receive yields one receive completion
 * ({@link Opcode#RECEIVE} or {@link Opcode#RECEIVE_WITH_IMMEDIATE}, with byte length, immediate and
 * wr_id, see {@link Completions}) on the completion queue the receive queue was created with. It
 * serves the queue pairs that peers (and this node's own loopback queue pairs) connect to this node
 * after {@link FabricNode#createReceiveQueue} returned; a message over a queue pair connected
 * before finds no receive and fails with {@link CompletionStatus#RECEIVER_NOT_READY}.
 *
 * <p>Owned by one thread at a time (the one that polls its completion queue). It lives until its
 * node closes.
 */
public interface ReceiveQueue {
    /**
     * Posts every entry of {@code requests} in order with one call (verbs {@code ibv_post_srq_recv}
     * of a chained list), or none of them. Allocates nothing. Progress: wait-free, no RDMA
     * operation (the buffers are only handed to the NIC).
     *
     * @param requests the list, unchanged by the call
     * @throws io.remus.core.error.BadArgumentException when a buffer is not covered by a registration of
     *                                            this node with the entry's lkey, or when the queue
     *                                            has no room for all of them (see {@link #depth()})
     */
    void post(ReceiveRequests requests);

    /**
     * {@return the most receives that can be outstanding: a receive holds its place from its post
     * until its completion is polled}
     */
    int depth();

    /** {@return receives posted whose completions have not been polled yet} */
    int outstanding();
}
