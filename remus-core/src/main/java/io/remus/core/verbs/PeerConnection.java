package io.remus.core.verbs;

import io.remus.verbs.CmConnection;
import io.remus.verbs.ConnectedQueuePair;

/**
 * A requester's connected queue pair and what must close with it: the rdma_cm connection that
 * owns it, or, when the peer node lives in this process, the peer's serving queue pair.
 *
 * @param queuePair  the requester's queue pair
 * @param peerSide   the serving queue pair in this process, or {@code null} (a loopback QP, or a
 *                   peer in another process, which keeps it until its node closes)
 * @param connection      the rdma_cm connection that owns {@code queuePair}, or {@code null}
 * @param peerIncarnation the incarnation of the node the queue pair reached ({@link VerbsNode#incarnation()})
 */
record PeerConnection(ConnectedQueuePair queuePair, ResponderQueuePair peerSide, CmConnection connection,
                      long peerIncarnation) {
    /** Closes both ends held in this process. */
    void close() {
        try {
            if (connection != null) {
                connection.close();
            } else {
                queuePair.close();
            }
        } finally {
            if (peerSide != null) {
                peerSide.close();
            }
        }
    }
}
