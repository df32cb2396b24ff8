package io.remus.core.verbs;

import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemusException;
import io.remus.core.error.ResourceInUseException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.CompletionRing;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;
import io.remus.verbs.CompletionOpcode;
import io.remus.verbs.ResourceBusyException;
import io.remus.verbs.WorkCompletions;

import java.util.Arrays;

/**
 * A completion queue over a verbs {@code ibv_cq}. Besides the device's completions it delivers
 * those the fabric makes itself for requests it refused to hand to the device (a local buffer no
 * registration covers, a misaligned atomic, requests flushed from a queue pair in the error
 * state); those come first. Each device completion retires its request in its queue pair's
 * ring, found by QP number, except receive completions when this is the completion queue of its
 * node's receive queue: a successful one is known by its opcode ({@code IBV_WC_RECV},
 * {@code IBV_WC_RECV_RDMA_WITH_IMM}); an error one (whose opcode verbs leaves undefined) by coming
 * from a queue pair that posts no sends here (a serving one) or carrying a wr_id that the queue pair
 * has not posted. Polling allocates nothing. One owning thread.
 */
final class VerbsCompletionQueue implements CompletionQueue {
    private static final int POLL_BATCH = 64;

    private final VerbsNode node;
    private final io.remus.verbs.CompletionQueue cq;
    private final WorkCompletions polled;
    private final int capacity;
    /** Completions made here or polled from the device that no poll has handed out yet. */
    private final CompletionRing pending;
    private volatile VerbsReceiveQueue receives;
    private volatile VerbsQueuePair[] queuePairs = new VerbsQueuePair[0];
    private boolean closed;

    VerbsCompletionQueue(VerbsNode node, io.remus.verbs.CompletionQueue cq, int capacity) {
        this.node = node;
        this.cq = cq;
        this.capacity = capacity;
        this.polled = new WorkCompletions(Math.min(POLL_BATCH, capacity));
        this.pending = CompletionRing.withReceiveFields(capacity + POLL_BATCH);
    }

    void attach(VerbsReceiveQueue rq) {
        receives = rq;
    }

    io.remus.verbs.CompletionQueue verbs() {
        return cq;
    }

    VerbsNode node() {
        return node;
    }

    synchronized void attach(VerbsQueuePair qp) {
        VerbsQueuePair[] now = Arrays.copyOf(queuePairs, queuePairs.length + 1);
        now[now.length - 1] = qp;
        queuePairs = now;
    }

    synchronized void detach(VerbsQueuePair qp) {
        queuePairs = Arrays.stream(queuePairs).filter(q -> q != qp).toArray(VerbsQueuePair[]::new);
    }

    void addMade(long wrId, Opcode op, CompletionStatus status) {
        addMade(wrId, op, status, 0, 0, false);
    }

    private void addMade(long wrId, Opcode op, CompletionStatus status, int length, int immediate, boolean withImmediate) {
        if (pending.isFull()) {
            throw new RemusException("completion queue overrun: " + pending.size() + " completions not polled");
        }
        pending.add(wrId, op, status, length, immediate, withImmediate);
    }

    @Override
    public int poll(Completions out) {
        int max = out.capacity();
        int n = pending.drain(out, 0);
        if (n > 0 || closed) {
            return n;
        }
        int got = cq.poll(polled);
        for (int i = 0; i < got; i++) {
            long id = polled.workRequestId(i);
            CompletionStatus status = StatusCodes.status(polled.status(i));
            if (isReceive(i, id, status)) {
                receives.retired();
                boolean imm = status == CompletionStatus.SUCCESS && polled.hasImmediate(i);
                Opcode op = status == CompletionStatus.SUCCESS
                        && polled.opcode(i) == CompletionOpcode.RECEIVE_RDMA_WITH_IMMEDIATE
                        ? Opcode.RECEIVE_WITH_IMMEDIATE : Opcode.RECEIVE;
                int length = status == CompletionStatus.SUCCESS ? polled.byteLength(i) : 0;
                int immediate = imm ? polled.immediate(i) : 0;
                if (n < max) {
                    out.set(n++, id, op, status, length, immediate, imm);
                } else {
                    addMade(id, op, status, length, immediate, imm);
                }
                continue;
            }
            Opcode op = retire(polled.queuePairNumber(i), id, status, polled.opcode(i));
            if (op == null) {
                continue;
            }
            if (n < max) {
                out.set(n++, id, op, status);
            } else {
                addMade(id, op, status);
            }
        }
        return n;
    }

    /**
     * Polls the device once and keeps what it returns for the next {@link #poll(Completions)}, retiring
     * requests in their queue pairs (how a fenced request waits for earlier ones).
     *
     * @return how many completions the device returned
     */
    int pollDevice() {
        if (closed) {
            return 0;
        }
        int got = cq.poll(polled);
        for (int i = 0; i < got; i++) {
            long id = polled.workRequestId(i);
            CompletionStatus status = StatusCodes.status(polled.status(i));
            if (isReceive(i, id, status)) {
                receives.retired();
                boolean imm = status == CompletionStatus.SUCCESS && polled.hasImmediate(i);
                addMade(id, status == CompletionStatus.SUCCESS
                                && polled.opcode(i) == CompletionOpcode.RECEIVE_RDMA_WITH_IMMEDIATE
                                ? Opcode.RECEIVE_WITH_IMMEDIATE : Opcode.RECEIVE, status,
                        status == CompletionStatus.SUCCESS ? polled.byteLength(i) : 0, imm ? polled.immediate(i) : 0, imm);
                continue;
            }
            Opcode op = retire(polled.queuePairNumber(i), id, status, polled.opcode(i));
            if (op != null) {
                addMade(id, op, status);
            }
        }
        return got;
    }

    private boolean isReceive(int i, long id, CompletionStatus status) {
        VerbsReceiveQueue rq = receives;
        if (rq == null || rq.outstanding() == 0) {
            return false;
        }
        if (status == CompletionStatus.SUCCESS) {
            return (polled.opcode(i) & CompletionOpcode.RECEIVE) != 0;
        }
        int qpn = polled.queuePairNumber(i);
        for (VerbsQueuePair qp : queuePairs) {
            if (qp.queuePairNumber() == qpn) {
                return !qp.pending(id);
            }
        }
        return true;
    }

    private Opcode retire(int qpn, long id, CompletionStatus status, int wcOpcode) {
        for (VerbsQueuePair qp : queuePairs) {
            if (qp.queuePairNumber() == qpn) {
                return qp.retire(id, status);
            }
        }
        return StatusCodes.opcode(wcOpcode);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    /**
     * @throws ResourceInUseException when queue pairs still deliver into the queue (verbs' {@code EBUSY}):
     *                                nothing was closed
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                cq.close();
            } catch (ResourceBusyException e) {
                throw new ResourceInUseException(e.getMessage());
            }
            closed = true;
        }
        polled.close();
        node.forget(this);
    }
}
