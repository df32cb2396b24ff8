package io.remus.core.verbs;

import io.remus.verbs.ConnectedQueuePair;

/**
 * A requester's connected queue pair and, when the peer node lives in this process, the peer's
 * serving queue pair, closed together.
 *
 * @param queuePair the requester's queue pair
 * @param peerSide  the serving queue pair in this process, or {@code null} (a loopback QP, or a
 *                  peer in another process, which keeps it until its node closes)
 */
record PeerConnection(ConnectedQueuePair queuePair, ResponderQueuePair peerSide) {
    /** Closes both ends held in this process. */
    void close() {
        try {
            queuePair.close();
        } finally {
            if (peerSide != null) {
                peerSide.close();
            }
        }
    }
}
