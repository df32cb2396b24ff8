package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchConnection;
import io.remus.bench.perftest.BenchFlags;
import io.remus.bench.perftest.BenchOperation;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTimeoutException;
import io.remus.bench.perftest.BenchTransport;

import io.remus.verbs.ConnectionOptions;

import java.time.Duration;
import java.util.List;

/**
 * The client side of a verbs benchmark: QPs to a {@link VerbsBenchServer} in another process (or
 * on another host), as perftest's client. Before each message size it tells the server which size
 * comes (an RDMA WRITE into the server's command word) and waits for the server's acknowledgement,
 * so that the server's ping-pong responder and buffers are ready; at the end it writes "done".
 */
public final class VerbsBenchTransport implements BenchTransport {
    private static final long ACK_POLL_NANOS = 100_000L;

    private final VerbsSide side;
    private final Duration timeout;
    private boolean handedOut;
    private boolean closed;

    /**
     * Connects to the server for a perftest-style run.
     *
     * @param options   how to reach it (must name the server's address)
     * @param s         the run's settings
     * @param inline    the inline size and why it was chosen
     * @param qpTimeout the QPs' ACK timeout exponent ({@code -u})
     * @param notes     the report's notes, which get the inline size and an ACK timeout other than the default
     * @return the transport
     */
    public static VerbsBenchTransport forRun(VerbsBenchOptions options, BenchSettings s, PerftestInline.Choice inline,
                                             int qpTimeout, List<String> notes) {
        if (inline.bytes() == 0) {
            notes.add("nothing is sent inline (" + inline.reason() + ")");
        } else {
            notes.add((s.test().operation() == BenchOperation.SEND ? "SENDs" : "WRITEs") + " of up to " + inline.bytes()
                    + " bytes are sent inline (" + inline.reason() + ")");
        }
        if (qpTimeout != ConnectionOptions.defaults().timeout()) {
            notes.add("QP ACK timeout " + qpTimeout + " (4.096 us * 2^" + qpTimeout + ", -u)");
        }
        return new VerbsBenchTransport(options, BenchFlags.bufferBytes(s), s.queuePairs(), s.inFlightPerQueuePair(),
                s.outstandingReads(), BenchFlags.signature(s), s.timeout());
    }

    /**
     * Connects to the server.
     *
     * @param options    how to reach it (must name the server's address)
     * @param dataBytes  the data buffer's length on each side
     * @param queuePairs how many QPs
     * @param depth      work requests in flight per QP
     * @param outstanding READs/atomics in flight per QP
     * @param signature  a digest of the test and flags both sides share
     * @param timeout    the longest wait for a control step
     */
    public VerbsBenchTransport(VerbsBenchOptions options, long dataBytes, int queuePairs, int depth, int outstanding,
                               int signature, Duration timeout) {
        if (options.isServer()) {
            throw new IllegalArgumentException("the client transport needs the server's address");
        }
        this.side = VerbsSide.connect(options, dataBytes, queuePairs, depth, outstanding, signature);
        this.timeout = timeout;
    }

    @Override
    public String description() {
        return side.description();
    }

    @Override
    public String fabricName() {
        return "verbs";
    }

    @Override
    public synchronized BenchConnection client() {
        if (handedOut) {
            throw new IllegalStateException("the verbs client connection is handed out once");
        }
        handedOut = true;
        return new Borrowed(side);
    }

    @Override
    public BenchConnection inProcessServer() {
        throw new UnsupportedOperationException("the verbs server runs in its own process");
    }

    @Override
    public boolean hasInProcessServer() {
        return false;
    }

    @Override
    public void beginSize(int index) {
        long command = index + 1L;
        side.sendCommand(command, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (side.acknowledgement() != command) {
            if (System.nanoTime() - deadline > 0) {
                throw new BenchTimeoutException("the server did not acknowledge size #" + command + " within "
                        + timeout.toMillis() + " ms");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(ACK_POLL_NANOS);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            side.sendCommand(VerbsSide.DONE, timeout);
        } finally {
            side.close();
        }
    }

    /** The side as the benchmark loop sees it: closing it leaves the QPs to the transport. */
    private record Borrowed(VerbsSide side) implements BenchConnection {
        @Override
        public java.lang.foreign.MemorySegment buffer() {
            return side.buffer();
        }

        @Override
        public long bufferBytes() {
            return side.bufferBytes();
        }

        @Override
        public int completionCapacity() {
            return side.completionCapacity();
        }

        @Override
        public void send(int qp, long localOffset, int bytes, long wrId, boolean signaled) {
            side.send(qp, localOffset, bytes, wrId, signaled);
        }

        @Override
        public void receive(int qp, long localOffset, int bytes, long wrId) {
            side.receive(qp, localOffset, bytes, wrId);
        }

        @Override
        public int receiveDepth() {
            return side.receiveDepth();
        }

        @Override
        public int queuePairs() {
            return side.queuePairs();
        }

        @Override
        public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
            side.read(qp, localOffset, remoteOffset, bytes, wrId, signaled);
        }

        @Override
        public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
            side.write(qp, localOffset, remoteOffset, bytes, wrId, signaled);
        }

        @Override
        public void atomic(int qp, io.remus.bench.perftest.AtomicType type, long localOffset, long remoteOffset,
                           long compareOrAdd, long swap, long wrId, boolean signaled) {
            side.atomic(qp, type, localOffset, remoteOffset, compareOrAdd, swap, wrId, signaled);
        }

        @Override
        public int poll(long[] wrIds) {
            return side.poll(wrIds);
        }

        @Override
        public void close() {
        }
    }
}
