package io.remus.bench.perftest;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Two in-memory {@link BenchConnection}s with reliable-connected SEND/RECV semantics, for testing
 * the SEND loops on a host without RDMA: a SEND waits (as an RNR retry would) until the peer has
 * a receive posted on the same QP, then copies its bytes there and completes on both sides.
 * Posting more receives than {@link BenchConnection#receiveDepth()} fails as a full receive queue
 * does. One lock for the pair; tests only.
 */
final class SendPair implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final Side a;
    private final Side b;

    SendPair(long bufferBytes, int queuePairs, int receiveDepth) {
        a = new Side(bufferBytes, queuePairs, receiveDepth);
        b = new Side(bufferBytes, queuePairs, receiveDepth);
        a.peer = b;
        b.peer = a;
    }

    BenchConnection client() {
        return a;
    }

    BenchConnection server() {
        return b;
    }

    /** @return every receive posted on {@code side} (one of this pair's), in posting order */
    List<Receive> receivesPostedOn(BenchConnection side) {
        synchronized (this) {
            return List.copyOf(((Side) side).log);
        }
    }

    @Override
    public void close() {
        arena.close();
    }

    /** A receive as posted: its QP, where in the buffer, and how many bytes it holds. */
    record Receive(int qp, long offset, int bytes) {
    }

    private record Pending(int qp, long offset, int bytes, long wrId, boolean signaled) {
    }

    private record Posted(long offset, int bytes, long wrId) {
    }

    private final class Side implements BenchConnection {
        private final MemorySegment buffer;
        private final int depth;
        private final List<ArrayDeque<Posted>> posted = new ArrayList<>();
        private final List<ArrayDeque<Pending>> incoming = new ArrayList<>();
        private final ArrayDeque<Long> completions = new ArrayDeque<>();
        private final List<Receive> log = new ArrayList<>();
        private Side peer;

        Side(long bytes, int queuePairs, int depth) {
            this.buffer = arena.allocate(bytes, 64);
            this.depth = depth;
            for (int i = 0; i < queuePairs; i++) {
                posted.add(new ArrayDeque<>());
                incoming.add(new ArrayDeque<>());
            }
        }

        @Override
        public MemorySegment buffer() {
            return buffer;
        }

        @Override
        public long bufferBytes() {
            return buffer.byteSize();
        }

        @Override
        public int completionCapacity() {
            return 16;
        }

        @Override
        public int queuePairs() {
            return posted.size();
        }

        @Override
        public int receiveDepth() {
            return depth;
        }

        @Override
        public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                           long wrId, boolean signaled) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void send(int qp, long localOffset, int bytes, long wrId, boolean signaled) {
            synchronized (SendPair.this) {
                peer.incoming.get(qp).add(new Pending(qp, localOffset, bytes, wrId, signaled));
                peer.deliver(qp);
            }
        }

        @Override
        public void receive(int qp, long localOffset, int bytes, long wrId) {
            synchronized (SendPair.this) {
                if (posted.get(qp).size() == depth) {
                    throw new BenchFailedException("receive queue of QP " + qp + " is full (" + depth + ")");
                }
                posted.get(qp).add(new Posted(localOffset, bytes, wrId));
                log.add(new Receive(qp, localOffset, bytes));
                deliver(qp);
            }
        }

        private void deliver(int qp) {
            while (!posted.get(qp).isEmpty() && !incoming.get(qp).isEmpty()) {
                Posted r = posted.get(qp).poll();
                Pending s = incoming.get(qp).poll();
                if (s.bytes() > r.bytes()) {
                    throw new BenchFailedException("local length error: " + s.bytes() + " > " + r.bytes());
                }
                MemorySegment.copy(peer.buffer, s.offset(), buffer, r.offset(), s.bytes());
                completions.add(r.wrId());
                if (s.signaled()) {
                    peer.completions.add(s.wrId());
                }
            }
        }

        @Override
        public int poll(long[] wrIds) {
            synchronized (SendPair.this) {
                int n = 0;
                while (n < wrIds.length && !completions.isEmpty()) {
                    wrIds[n++] = completions.poll();
                }
                return n;
            }
        }

        @Override
        public void close() {
        }
    }
}
