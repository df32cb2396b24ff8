package io.remus.core.verbs;

import io.remus.verbs.ConnectedQueuePair;

/**
 * The queue pair a node creates to serve one requester's queue pair: it posts nothing, it only
 * lets the device execute the requester's READs, WRITEs and atomics against this node's memory.
 */
final class ResponderQueuePair implements AutoCloseable {
    private final VerbsNode node;
    private final ConnectedQueuePair queuePair;
    private boolean closed;

    ResponderQueuePair(VerbsNode node, ConnectedQueuePair queuePair) {
        this.node = node;
        this.queuePair = queuePair;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        queuePair.close();
        node.forget(this);
    }
}
