package io.remus.core.verbs;

import io.remus.core.error.RemusException;
import io.remus.verbs.CmConnection;

/**
 * The queue pair a node creates to serve one requester's queue pair: it posts nothing, it only
 * lets the device execute the requester's READs, WRITEs and atomics against this node's memory,
 * and, when the node had a receive queue as it was created, deliver the requester's SENDs and
 * WRITE_WITH_IMMEDIATEs into that queue's receives.
 * It is either a hand-connected queue pair or an accepted rdma_cm connection; the node releases the
 * latter when its requester leaves ({@link VerbsNode#releaseLeftConnections()}).
 */
final class ResponderQueuePair implements AutoCloseable {
    private final VerbsNode node;
    private final AutoCloseable queuePair;
    private boolean closed;

    ResponderQueuePair(VerbsNode node, AutoCloseable queuePair) {
        this.node = node;
        this.queuePair = queuePair;
    }

    /** {@return whether this serves an rdma_cm connection whose requester has disconnected (or died)} */
    boolean requesterLeft() {
        return queuePair instanceof CmConnection c && c.peerDisconnected();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            queuePair.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new RemusException("closing a serving queue pair of node " + node.nodeId() + " failed", e);
        } finally {
            node.forget(this);
        }
    }
}
