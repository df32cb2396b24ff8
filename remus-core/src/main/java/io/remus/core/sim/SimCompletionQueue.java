package io.remus.core.sim;

import io.remus.core.BadArgumentException;
import io.remus.core.RemusException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.CompletionStatus;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;

import java.util.Arrays;

/**
 * A simulated completion queue: a ring of completions, each pollable from its ready time, followed
 * by the receive completions of the receive queue it serves, if any. Polling first drives the
 * execution of its QPs' due work requests. One owning thread.
 */
final class SimCompletionQueue implements CompletionQueue {
    private final long[] wrId;
    private final Opcode[] opcode;
    private final CompletionStatus[] status;
    private final long[] readyNanos;
    private SimQueuePair[] queuePairs = new SimQueuePair[0];
    private volatile SimReceiveQueue receives;
    private int head;
    private int count;

    SimCompletionQueue(int capacity) {
        if (capacity <= 0) {
            throw new BadArgumentException("completion queue capacity must be positive, got " + capacity);
        }
        wrId = new long[capacity];
        opcode = new Opcode[capacity];
        status = new CompletionStatus[capacity];
        readyNanos = new long[capacity];
    }

    void attach(SimQueuePair qp) {
        SimQueuePair[] now = Arrays.copyOf(queuePairs, queuePairs.length + 1);
        now[now.length - 1] = qp;
        queuePairs = now;
    }

    /** Hands out {@code rq}'s receive completions too, after this queue's own. */
    void attach(SimReceiveQueue rq) {
        receives = rq;
    }

    void add(long id, Opcode op, CompletionStatus result, long ready) {
        if (count == wrId.length) {
            throw new RemusException("simulated completion queue overrun (capacity " + wrId.length + ")");
        }
        int i = (head + count) % wrId.length;
        wrId[i] = id;
        opcode[i] = op;
        status[i] = result;
        readyNanos[i] = ready;
        count++;
    }

    @Override
    public int poll(Completions out) {
        long now = System.nanoTime();
        for (SimQueuePair qp : queuePairs) {
            qp.progress(now);
        }
        int n = 0;
        int max = out.capacity();
        while (count > 0 && n < max && readyNanos[head] - now <= 0) {
            out.set(n++, wrId[head], opcode[head], status[head]);
            status[head] = null;
            head = (head + 1) % wrId.length;
            count--;
        }
        SimReceiveQueue rq = receives;
        if (rq != null && n < max) {
            n = rq.drain(out, n, now);
        }
        return n;
    }

    @Override
    public int capacity() {
        return wrId.length;
    }

    @Override
    public void close() {
        queuePairs = new SimQueuePair[0];
        receives = null;
    }
}
