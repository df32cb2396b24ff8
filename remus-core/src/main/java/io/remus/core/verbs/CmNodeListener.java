package io.remus.core.verbs;

import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.verbs.CmConnection;
import io.remus.verbs.CmListener;
import io.remus.verbs.CmPrivateData;
import io.remus.verbs.Context;
import io.remus.verbs.InvalidArgumentException;
import io.remus.verbs.WaitTimeoutException;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One node's rdma_cm listener and the daemon thread that accepts connections for it: each accepted
 * connection's queue pair serves the requester against the node's memory, and the node's region
 * table, node id and incarnation ({@link VerbsNode#incarnation()}) are offered in the private data
 * ({@link CmPrivateData}), so a requester learns which incarnation of the node its queue pair reached. Each request's private
 * data names the requester's node id, which the node checks before the request is accepted
 * ({@link VerbsNode#admit}: a malformed request, or one that names this node or a node outside the node
 * list, is rejected and logged as a warning) and serves with the access it gives that peer
 * ({@link VerbsNode#setPeerAccess}).
 * While idle (every second at most) it releases the serving connections whose requester disconnected
 * or died. A request that fails to complete is dropped (the requester retries until its connect timeout).
 */
final class CmNodeListener implements AutoCloseable {
    private static final Duration ACCEPT_SLICE = Duration.ofSeconds(1);
    private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final System.Logger LOG = System.getLogger(CmNodeListener.class.getName());

    private final VerbsNode node;
    private final CmListener listener;
    private final Thread thread;
    private final Duration establishTimeout;
    private volatile boolean stopping;

    CmNodeListener(Context context, VerbsNode node, String ipv4, int port, Duration establishTimeout) {
        this.node = node;
        this.establishTimeout = establishTimeout;
        this.listener = CmListener.listen(context, ipv4, port);
        this.thread = Thread.ofPlatform().daemon().name("remus-cm-node-" + node.nodeId()).start(this::run);
    }

    private void run() {
        while (!stopping) {
            try {
                CmConnection c = listener.accept(node.responderBuilder(),
                        new CmPrivateData(node.directoryOffer(), node.nodeId(), 0, node.incarnation()), ACCEPT_SLICE, establishTimeout, node::admit);
                node.adopt(c);
                releaseLeft();
            } catch (WaitTimeoutException idle) {
                releaseLeft();
                continue;
            } catch (BootstrapProtocolException | InvalidArgumentException refused) {
                if (!stopping) {
                    LOG.log(System.Logger.Level.WARNING, "node " + node.nodeId() + " rejected an rdma_cm connection request: "
                            + refused.getMessage());
                }
            } catch (RuntimeException e) {
                if (!stopping) {
                    LOG.log(System.Logger.Level.DEBUG, "node " + node.nodeId() + " dropped a connection request", e);
                    java.util.concurrent.locks.LockSupport.parkNanos(RETRY_PAUSE_NANOS);
                }
            } finally {
                node.endAdmission();
            }
        }
    }

    private void releaseLeft() {
        try {
            node.releaseLeftConnections();
        } catch (RuntimeException e) {
            if (!stopping) {
                LOG.log(System.Logger.Level.DEBUG, "node " + node.nodeId() + " failed to release a left connection", e);
            }
        }
    }

    /** Stops accepting, waits (bounded) for the accept thread, closes the listener. Idempotent. */
    @Override
    public void close() {
        stopping = true;
        try {
            thread.join(ACCEPT_SLICE.plus(establishTimeout).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        listener.close();
    }
}
