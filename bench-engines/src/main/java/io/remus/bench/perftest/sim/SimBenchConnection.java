package io.remus.bench.perftest.sim;

import io.remus.bench.perftest.AtomicType;
import io.remus.bench.perftest.BenchConnection;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * One side of a {@link SimBenchTransport}: its buffer, QPs to the peer, the node's completion queue and, for the
 * SEND tests, the node's receive queue (shared by the QPs: a receive posted for one QP may take another's SEND).
 */
final class SimBenchConnection implements BenchConnection {
    /** The QPs' bound on a fenced request's wait; the benchmarks fence nothing, and the simulator never waits. */
    private static final Duration FENCE_WAIT = Duration.ofMinutes(1);
    private final RegisteredMemory buffer;
    private final RemoteRegion remote;
    private final CompletionQueue cq;
    private final QueuePair[] qps;
    private final WorkRequests request = new WorkRequests(1);
    private final ReceiveQueue receives;
    private final ReceiveRequests receive = new ReceiveRequests(1);
    private final int receiveDepth;
    private final Completions completions;
    private boolean closed;

    SimBenchConnection(FabricNode node, RegisteredMemory buffer, RemoteRegion remote, int queuePairs, int depth,
                       CompletionQueue cq, ReceiveQueue receives, int receiveDepth) {
        this.buffer = buffer;
        this.remote = remote;
        this.cq = cq;
        this.receives = receives;
        this.receiveDepth = receives == null ? 0 : receiveDepth;
        this.completions = new Completions(queuePairs * (depth + this.receiveDepth));
        this.qps = new QueuePair[queuePairs];
        for (int i = 0; i < queuePairs; i++) {
            qps[i] = node.connect(remote.nodeId(), cq, depth, FENCE_WAIT);
        }
    }

    @Override
    public MemorySegment buffer() {
        return buffer.segment();
    }

    @Override
    public long bufferBytes() {
        return buffer.length();
    }

    @Override
    public int completionCapacity() {
        return completions.capacity();
    }

    @Override
    public int queuePairs() {
        return qps.length;
    }

    @Override
    public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        request.clear();
        request.addRead(wrId, buffer.address() + localOffset, bytes, buffer.lkey(),
                remote.address() + remoteOffset, remote.rkey(), flags(signaled));
        qps[qp].post(request);
    }

    @Override
    public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        request.clear();
        request.addWrite(wrId, buffer.address() + localOffset, bytes, buffer.lkey(),
                remote.address() + remoteOffset, remote.rkey(), flags(signaled));
        qps[qp].post(request);
    }

    @Override
    public void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                       long wrId, boolean signaled) {
        request.clear();
        long local = buffer.address() + localOffset;
        long target = remote.address() + remoteOffset;
        if (type == AtomicType.CMP_AND_SWAP) {
            request.addCompareAndSwap(wrId, local, buffer.lkey(), target, remote.rkey(), compareOrAdd, swap,
                    flags(signaled));
        } else {
            request.addFetchAndAdd(wrId, local, buffer.lkey(), target, remote.rkey(), compareOrAdd, flags(signaled));
        }
        qps[qp].post(request);
    }

    @Override
    public void send(int qp, long localOffset, int bytes, long wrId, boolean signaled) {
        if (receives == null) {
            throw new UnsupportedOperationException("this transport was made without receive queues (receive depth 0)");
        }
        request.clear();
        request.addSend(wrId, buffer.address() + localOffset, bytes, buffer.lkey(), flags(signaled));
        qps[qp].post(request);
    }

    @Override
    public void receive(int qp, long localOffset, int bytes, long wrId) {
        if (receives == null) {
            throw new UnsupportedOperationException("this transport was made without receive queues (receive depth 0)");
        }
        receive.clear();
        receive.add(wrId, buffer.address() + localOffset, bytes, buffer.lkey());
        receives.post(receive);
    }

    @Override
    public int receiveDepth() {
        return receiveDepth;
    }

    private static int flags(boolean signaled) {
        return signaled ? WorkRequests.SIGNALED : 0;
    }

    @Override
    public int poll(long[] wrIds) {
        int n = cq.poll(completions);
        for (int i = 0; i < n; i++) {
            if (completions.status(i) != CompletionStatus.SUCCESS) {
                throw new BenchFailedException(completions.opcode(i) + " work request " + completions.wrId(i)
                        + " completed with " + completions.status(i));
            }
            wrIds[i] = completions.wrId(i);
        }
        return n;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (QueuePair qp : qps) {
            qp.close();
        }
    }
}
