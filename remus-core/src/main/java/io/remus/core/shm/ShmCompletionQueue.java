package io.remus.core.shm;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.CompletionRing;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;

import java.util.ArrayList;
import java.util.List;

/**
 * A completion queue of the shared-memory fabric: a ring of the completions its queue pairs
 * produced, handed out oldest first by {@link #poll}. It lives in this process (completions are
 * never seen by another one), then, when it serves its node's receive queue, the receive completions
 * that senders left in that queue's file. As verbs does, it refuses to close while a queue pair created
 * with it is open, or, when it serves the receive queue, once a queue pair connected to the node after
 * the receive queue existed. One owning thread.
 */
final class ShmCompletionQueue implements CompletionQueue {
    /** The most entries one holds, as a device's {@code max_cqe} limits a verbs one (what mlx5 devices report). */
    static final int MAX_ENTRIES = (1 << 22) - 1;

    private final int nodeId;
    private final CompletionRing ring;
    private final List<ShmQueuePair> queuePairs = new ArrayList<>();
    /** The node's receive queue when it delivers here, or null. */
    private volatile ShmReceiveQueue receives;
    private boolean closed;

    ShmCompletionQueue(int nodeId, int capacity) {
        if (capacity <= 0 || capacity > MAX_ENTRIES) {
            throw new BadArgumentException("completion queue capacity must be 1.." + MAX_ENTRIES + ", got " + capacity);
        }
        this.nodeId = nodeId;
        ring = CompletionRing.plain(capacity);
    }

    synchronized void attach(ShmQueuePair qp) {
        queuePairs.add(qp);
    }

    /** Hands out {@code rq}'s receive completions too, after this queue's own. */
    void attach(ShmReceiveQueue rq) {
        receives = rq;
    }

    void add(long id, Opcode op, CompletionStatus result) {
        if (ring.isFull()) {
            throw new RemusException("completion queue of node " + nodeId + " overrun (capacity " + ring.capacity() + ")");
        }
        ring.add(id, op, result);
    }

    @Override
    public int poll(Completions out) {
        int n = ring.drain(out, 0);
        ShmReceiveQueue rq = receives;
        if (rq != null && n < out.capacity()) {
            n = rq.drain(out, n);
        }
        return n;
    }

    @Override
    public int capacity() {
        return ring.capacity();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            long open = queuePairs.stream().filter(qp -> !qp.isClosed()).count();
            ShmReceiveQueue rq = receives;
            long served = rq == null ? 0 : rq.connections();
            if (open > 0 || served > 0) {
                throw CompletionRing.closeRefused(nodeId, open, served);
            }
        }
        closeWithNode();
    }

    /** Closes the queue as its node closes, whoever still uses it. */
    synchronized void closeWithNode() {
        closed = true;
        queuePairs.clear();
        receives = null;
    }
}
