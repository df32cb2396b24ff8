package io.remus.core.verbs;

import io.remus.core.error.RemusException;
import io.remus.core.fabric.PeerAccess;
import io.remus.verbs.Access;
import io.remus.verbs.CmConnection;
import io.remus.verbs.ConnectedQueuePair;
import io.remus.verbs.QueuePairState;
import io.remus.verbs.VerbsException;

import java.util.EnumSet;
import java.util.Set;

/**
 * The queue pair a node creates to serve one requester's queue pair: it posts nothing, it only
 * lets the device execute the requester's READs, WRITEs and atomics against this node's memory,
 * and, when the node had a receive queue as it was created, deliver the requester's SENDs and
 * WRITE_WITH_IMMEDIATEs into that queue's receives.
 * It is either a hand-connected queue pair or an accepted rdma_cm connection; the node releases the
 * latter when its requester leaves ({@link VerbsNode#releaseLeftConnections()}). It knows its
 * requester's node id when the requester connected in this process, through the TCP bootstrap, or over
 * rdma_cm with its node id in the connect request's private data ({@link io.remus.verbs.CmPrivateData},
 * checked by {@link VerbsNode#admit} before the request is accepted). A connection whose requester names
 * no node (this process' region-table reader, which only READs) serves {@link #UNKNOWN_REQUESTER}. It
 * knows its requester's plane ({@link io.remus.core.fabric.Plane}) the same ways, and the node switches it with
 * that plane's access for the requester.
 */
final class ResponderQueuePair implements AutoCloseable {
    /**
     * The requester id of a serving queue pair whose requester named no node id (an rdma_cm connection made
     * without one): it serves reads only while its node holds any peer {@link PeerAccess#READ_ONLY}.
     */
    static final int UNKNOWN_REQUESTER = -1;
    private static final Set<Access> READ_ONLY = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ);
    private static final Set<Access> READ_WRITE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE, Access.REMOTE_ATOMIC);

    private final VerbsNode node;
    private final AutoCloseable queuePair;
    private final ConnectedQueuePair connected;
    private final int requester;
    private final int plane;
    private boolean closed;

    ResponderQueuePair(VerbsNode node, ConnectedQueuePair queuePair, int requester, int plane) {
        this(node, queuePair, queuePair, requester, plane);
    }

    ResponderQueuePair(VerbsNode node, CmConnection connection, int requester, int plane) {
        this(node, connection, connection.queuePair(), requester, plane);
    }

    /** {@return the queue pair access flags that give a requester {@code access}} */
    static Set<Access> flags(PeerAccess access) {
        return access == PeerAccess.READ_ONLY ? READ_ONLY : READ_WRITE;
    }

    private ResponderQueuePair(VerbsNode node, AutoCloseable queuePair, ConnectedQueuePair connected, int requester,
            int plane) {
        this.node = node;
        this.queuePair = queuePair;
        this.connected = connected;
        this.requester = requester;
        this.plane = plane;
    }

    /** {@return the requester's node id, or {@link #UNKNOWN_REQUESTER}} */
    int requester() {
        return requester;
    }

    /** {@return the plane of the requester's queue pair} */
    int plane() {
        return plane;
    }

    /**
     * Sets what the requester may do ({@code ibv_query_qp}, then {@code ibv_modify_qp} with
     * {@code IBV_QP_ACCESS_FLAGS}); a queue pair in the error or reset state serves nothing and is left
     * as it is (its requester reconnects to a new one, made with the node's access for it then).
     */
    synchronized void setAccess(PeerAccess access) {
        if (closed) {
            return;
        }
        QueuePairState state = connected.state();
        if (state == QueuePairState.ERROR || state == QueuePairState.RESET) {
            return;
        }
        try {
            connected.setAccess(flags(access));
        } catch (VerbsException e) {
            throw new RemusException("node " + node.nodeId() + " could not switch the access of "
                    + (requester == UNKNOWN_REQUESTER ? "an rdma_cm requester" : "peer " + requester + " on plane " + plane)
                    + " to " + access, e);
        }
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
