package io.remus.core.verbs;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;
import io.remus.verbs.ReceiveBatch;
import io.remus.verbs.SharedReceiveQueue;
import io.remus.verbs.VerbsException;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's receive queue over a verbs shared receive queue ({@code ibv_srq}): the node attaches
 * every queue pair it creates afterwards (its requesters' and the serving ones peers connect to) to
 * it, with its completion queue as their receive completion queue. {@link #post(ReceiveRequests)}
 * checks every buffer against the node's registrations and the queue's room, then translates the
 * list into a preallocated {@link ReceiveBatch} and posts it with one {@code ibv_post_srq_recv},
 * allocating nothing. The completion queue counts receives out as it hands their completions out.
 */
final class VerbsReceiveQueue implements ReceiveQueue, AutoCloseable {
    private final VerbsNode node;
    private final SharedReceiveQueue srq;
    private final VerbsCompletionQueue cq;
    private final int depth;
    private final ReceiveBatch batch;
    private final AtomicInteger outstanding = new AtomicInteger();
    private boolean closed;

    VerbsReceiveQueue(VerbsNode node, SharedReceiveQueue srq, VerbsCompletionQueue cq, int depth) {
        this.node = node;
        this.srq = srq;
        this.cq = cq;
        this.depth = depth;
        this.batch = srq.receiveBatch(depth);
    }

    SharedReceiveQueue srq() {
        return srq;
    }

    VerbsCompletionQueue completionQueue() {
        return cq;
    }

    @Override
    public void post(ReceiveRequests requests) {
        int n = requests.size();
        if (closed) {
            throw new BadArgumentException("receive queue of node " + node.nodeId() + " is closed");
        }
        int now = outstanding.get();
        ReceiveRequests.requireRoom(node.nodeId(), now, n, depth);
        ReceiveBatch b = batch;
        b.clear();
        try {
            for (int k = 0; k < n; k++) {
                VerbsMemory m = node.findLocal(requests.lkey(k), requests.address(k), requests.length(k));
                if (m == null) {
                    throw requests.notCovered(k, node.nodeId());
                }
                b.receive(requests.wrId(k), m.region(), requests.address(k) - m.address(), requests.length(k));
            }
        } catch (VerbsException e) {
            b.clear();
            throw new BadArgumentException("receive request rejected by the verbs API: " + e.getMessage());
        } catch (RuntimeException e) {
            b.clear();
            throw e;
        }
        if (n == 0) {
            return;
        }
        try {
            b.post();
        } catch (VerbsException e) {
            throw new RemusException("posting " + n + " receives on node " + node.nodeId() + " failed", e);
        }
        outstanding.addAndGet(n);
    }

    /** Counts out a receive whose completion the completion queue hands out. */
    void retired() {
        outstanding.decrementAndGet();
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int outstanding() {
        return outstanding.get();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        srq.close();
    }
}
