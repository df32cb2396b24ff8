package io.remus.core.sim;

import io.remus.core.time.ThreadTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemusException;
import io.remus.core.error.ResourceInUseException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.CompletionRing;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;

import java.util.Arrays;

/**
 * A simulated completion queue: a ring of completions, each pollable from its ready time, followed
 * by the receive completions of the receive queue it serves, if any. Polling first drives the
 * execution of its QPs' due work requests. One owning thread.
 *
 * <p>As verbs does, it refuses to close ({@link ResourceInUseException}) while a queue pair it was
 * created for is open, or, when it serves its node's receive queue, once a peer has connected to that
 * node after the receive queue existed: in verbs that connection's serving queue pair on the node
 * delivers into this queue and lives until the node closes. The node itself closes it in any case.
 */
final class SimCompletionQueue implements CompletionQueue {
    private final CompletionRing ring;
    private final int nodeId;
    private volatile SimQueuePair[] queuePairs = new SimQueuePair[0];
    private volatile SimReceiveQueue receives;
    /** Connections peers made to the node after its receive queue, which delivers here, existed. */
    private int servedConnections;
    private boolean closed;

    /**
     * The most entries a simulated completion queue holds, as a device's {@code max_cqe} limits a
     * verbs one: {@code 2^22 - 1}, what ConnectX (mlx5) devices report.
     */
    static final int MAX_ENTRIES = (1 << 22) - 1;

    SimCompletionQueue(int nodeId, int capacity) {
        this.nodeId = nodeId;
        if (capacity <= 0 || capacity > MAX_ENTRIES) {
            throw new BadArgumentException("completion queue capacity must be 1.." + MAX_ENTRIES
                    + " (the simulated device's max_cqe), got " + capacity);
        }
        ring = CompletionRing.timed(capacity);
    }

    synchronized void attach(SimQueuePair qp) {
        SimQueuePair[] now = Arrays.copyOf(queuePairs, queuePairs.length + 1);
        now[now.length - 1] = qp;
        queuePairs = now;
    }

    /** Hands out {@code rq}'s receive completions too, after this queue's own. */
    void attach(SimReceiveQueue rq) {
        receives = rq;
    }

    /** A peer connected to the node whose receive queue delivers here; see the class. */
    synchronized void serveConnection() {
        servedConnections++;
    }

    void add(long id, Opcode op, CompletionStatus result, long ready) {
        if (ring.isFull()) {
            throw new RemusException("simulated completion queue overrun (capacity " + ring.capacity() + ")");
        }
        ring.add(id, op, result, ready);
    }

    @Override
    public int poll(Completions out) {
        long now = ThreadTime.nanoTime();
        for (SimQueuePair qp : queuePairs) {
            qp.progress(now);
        }
        int n = ring.drainReady(out, 0, now);
        SimReceiveQueue rq = receives;
        if (rq != null && n < out.capacity()) {
            n = rq.drain(out, n, now);
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
            int open = 0;
            for (SimQueuePair qp : queuePairs) {
                if (!qp.isClosed()) {
                    open++;
                }
            }
            if (open > 0 || servedConnections > 0) {
                throw CompletionRing.closeRefused(nodeId, open, servedConnections);
            }
        }
        closeWithNode();
    }

    /** Closes the queue as its node closes, whoever still uses it. */
    synchronized void closeWithNode() {
        closed = true;
        queuePairs = new SimQueuePair[0];
        receives = null;
    }
}
