package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.AtomicType;
import io.remus.bench.perftest.BenchConnection;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTimeoutException;
import io.remus.verbs.Access;
import io.remus.verbs.CmConnection;
import io.remus.verbs.CmConnector;
import io.remus.verbs.CmListener;
import io.remus.verbs.CompletionQueue;
import io.remus.verbs.CompletionStatus;
import io.remus.verbs.ConnectedQueuePair;
import io.remus.verbs.ConnectionOptions;
import io.remus.verbs.Context;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceAttributes;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.Endpoint;
import io.remus.verbs.Gid;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.PreparedQueuePair;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.QueuePairBuilder;
import io.remus.verbs.QueuePairState;
import io.remus.verbs.ReceiveBatch;
import io.remus.verbs.RemoteRegion;
import io.remus.verbs.SendBatch;
import io.remus.verbs.VerbsException;
import io.remus.verbs.WaitTimeoutException;
import io.remus.verbs.WorkCompletions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a verbs benchmark, in its own process: a device context, a registered buffer, one
 * completion queue and {@code queuePairs} reliable-connected QPs to the peer's buffer, connected by
 * a TCP exchange or by rdma_cm. Past the data buffer lie three control words, written by RDMA
 * between sizes: the client's command in the server's buffer, the server's acknowledgement in the
 * client's, and the local source of such a write. The data path ({@link #read}, {@link #write},
 * {@link #atomic}, {@link #poll}) fills preallocated work requests, posts with one call and
 * allocates nothing.
 * <p>
 * Control writes share the data path's completion queue. A control write keeps every other
 * completion it polls past and {@link #poll} hands those out first: the peer may start a size's
 * SENDs as soon as it sees the acknowledgement word, before this side has polled its own control
 * write's completion, and a receive completion dropped there would never be posted again (the
 * sender then waits for ever on receiver-not-ready, or a ping-pong for a ping that arrived).
 */
public final class VerbsSide implements BenchConnection {
    static final long DONE = -1;
    /** {@link #unsealed} of a word whose halves disagree; outside the values a control word carries. */
    static final long TORN = Long.MIN_VALUE;
    private static final long CONTROL_ID = Long.MIN_VALUE;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long CONTROL_BYTES = 64;
    private static final int COMPLETIONS = 64;

    private final Context context;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final Arena arena;
    private final MemoryRegion region;
    private final MemorySegment buffer;
    private final long dataBytes;
    private final int inlineSize;
    private final WorkCompletions completions;
    private final long[] held;
    private final long[] controlIds = new long[COMPLETIONS];
    private int heldCount;
    private final List<ConnectedQueuePair> queuePairs = new ArrayList<>();
    private final List<PreparedQueuePair> prepared = new ArrayList<>();
    private final List<CmConnection> cmConnections = new ArrayList<>();
    private SendBatch[] batches;
    private ReceiveBatch[] receives;
    private final int receiveDepth;
    private CmListener listener;
    private TcpExchange exchange;
    private RemoteRegion peer;
    private String description;
    private int readsInFlight;
    private long lastCommand;
    private long lastAcknowledgement;
    private boolean closed;

    private VerbsSide(Context context, long dataBytes, int queuePairCount, int depth, int inlineSize,
                      int receiveDepth) {
        this.context = context;
        this.receiveDepth = receiveDepth;
        this.dataBytes = dataBytes;
        this.inlineSize = inlineSize;
        try {
            this.pd = context.allocateProtectionDomain();
            int cqEntries = Math.max(COMPLETIONS, queuePairCount * (depth + 2 + receiveDepth));
            this.cq = context.createCompletionQueue(cqEntries);
            this.held = new long[cqEntries];
            this.arena = Arena.ofShared();
            this.buffer = arena.allocate(dataBytes + CONTROL_BYTES, 4096);
            this.region = pd.registerMemory(buffer, Access.all());
            this.completions = new WorkCompletions(COMPLETIONS);
        } catch (RuntimeException e) {
            closeAll();
            throw e;
        }
    }

    /**
     * Opens the device and connects to the peer as {@code options} say.
     *
     * @param options    device, port, GID, connection method, server address
     * @param dataBytes  the data buffer's length (both sides must use the same)
     * @param queuePairs how many QPs
     * @param depth      work requests in flight per QP
     * @param outstanding READs/atomics in flight per QP
     * @param signature  a digest of the test and flags that both sides must share (TCP exchange only)
     * @return the connected side
     * @throws BenchFailedException  when the device or connection fails
     * @throws BenchTimeoutException when the peer does not come in time
     */
    public static VerbsSide connect(VerbsBenchOptions options, long dataBytes, int queuePairs, int depth,
                                    int outstanding, int signature) {
        String device = options.device() != null ? options.device() : firstDevice();
        Context context = options.rdmaCm() ? Context.openForRdmaCm(device) : Context.open(device);
        VerbsSide side;
        try {
            side = new VerbsSide(context, dataBytes, queuePairs, depth, options.inlineSize(), options.receiveDepth());
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        try {
            QueuePairBuilder builder = side.pd.queuePair().completionQueue(side.cq).port(options.port())
                    .gidIndex(options.gidIndex()).maxSendWorkRequests(depth + 2)
                    .maxReceiveWorkRequests(Math.max(1, options.receiveDepth()))
                    .maxInlineData(options.inlineSize());
            if (options.rdmaCm()) {
                side.connectCm(options, builder, queuePairs, outstanding, device);
            } else {
                side.connectTcp(options, builder, queuePairs, outstanding, signature);
            }
            side.batches = new SendBatch[queuePairs];
            side.receives = new ReceiveBatch[queuePairs];
            for (int i = 0; i < queuePairs; i++) {
                side.batches[i] = side.queuePairs.get(i).sendBatch(1);
                side.receives[i] = side.queuePairs.get(i).receiveBatch(1);
            }
            return side;
        } catch (VerbsException e) {
            side.close();
            throw new BenchFailedException("verbs setup failed: " + e.getMessage());
        } catch (RuntimeException e) {
            side.close();
            throw e;
        }
    }

    /**
     * The QPs' connection settings: the ACK timeout ({@code -u}; rdma_cm chooses its own), the library's
     * retry counts, and as many READs/atomics in flight each way as {@code -o} says or, without it, the
     * device's most ({@code max_qp_rd_atom}), as perftest; like perftest, more than the device allows
     * is cut to what it allows.
     */
    private ConnectionOptions connectionOptions(int qpTimeout, int outstanding) {
        DeviceAttributes device = context.queryDevice();
        int most = Math.max(1, Math.min(255, device.maxQueuePairReadAtomic()));
        int serve = outstanding == BenchSettings.DEVICE_MOST_READS ? most : Math.min(outstanding, most);
        int issue = Math.max(1, Math.min(serve, device.maxQueuePairInitiatorReadAtomic()));
        readsInFlight = issue;
        ConnectionOptions defaults = ConnectionOptions.defaults();
        return new ConnectionOptions(defaults.pathMtu(), qpTimeout, defaults.retryCount(), defaults.rnrRetry(),
                defaults.minRnrTimer(), issue, serve, defaults.hopLimit());
    }

    /**
     * Opens the device only to read its attributes.
     *
     * @param device the device ({@code -d}), or null for the first one listed
     * @return its attributes
     * @throws BenchFailedException when there is no RDMA device
     */
    public static DeviceAttributes queryDevice(String device) {
        try (Context context = Context.open(device != null ? device : firstDevice())) {
            return context.queryDevice();
        }
    }

    private static String firstDevice() {
        List<DeviceInfo> devices = Device.list();
        if (devices.isEmpty()) {
            throw new BenchFailedException("no RDMA devices on this host: run with --fabric sim");
        }
        return devices.getFirst().name();
    }

    private void connectTcp(VerbsBenchOptions options, QueuePairBuilder builder, int n, int outstanding,
                            int signature) {
        exchange = options.isServer() ? TcpExchange.accept(options.tcpPort(), options.connectWait())
                : TcpExchange.connect(options.server(), options.tcpPort(), options.connectWait());
        byte[][] mine = new byte[n + 1][];
        for (int i = 0; i < n; i++) {
            PreparedQueuePair qp = builder.build();
            prepared.add(qp);
            mine[i] = qp.localEndpoint().toBytes();
        }
        mine[n] = offer().toBytes();
        byte[][] theirs = exchange.swap(signature, mine);
        peer = RemoteRegion.fromBytes(theirs[n]);
        checkPeerRegion();
        ConnectionOptions connection = connectionOptions(options.qpTimeout(), outstanding);
        for (int i = 0; i < n; i++) {
            queuePairs.add(prepared.get(i).connect(Endpoint.fromBytes(theirs[i]), connection));
        }
        exchange.barrier();
        description = "verbs " + context.name() + ", " + n + " RC QP(s) by TCP exchange "
                + (options.isServer() ? "(server, port " : "with " + options.server() + " (port ")
                + options.tcpPort() + ")";
    }

    private void connectCm(VerbsBenchOptions options, QueuePairBuilder builder, int n, int outstanding, String device) {
        ConnectionOptions connection = connectionOptions(options.qpTimeout(), outstanding);
        if (options.isServer()) {
            String address = localIpv4(options.port(), device);
            listener = CmListener.listen(context, address, options.tcpPort());
            for (int i = 0; i < n; i++) {
                try {
                    cmConnections.add(listener.accept(builder, offer(), options.connectWait(), connection));
                } catch (WaitTimeoutException e) {
                    throw new BenchTimeoutException("no rdma_cm client connected to " + address + ":"
                            + options.tcpPort() + " within " + options.connectWait().toMillis() + " ms");
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                try {
                    cmConnections.add(CmConnector.connect(builder, options.server(), options.tcpPort(), offer(),
                            options.connectWait(), connection));
                } catch (WaitTimeoutException e) {
                    throw new BenchTimeoutException("no rdma_cm server at " + options.server() + ":"
                            + options.tcpPort() + " within " + options.connectWait().toMillis() + " ms");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BenchFailedException("interrupted while connecting");
                }
            }
        }
        for (CmConnection c : cmConnections) {
            queuePairs.add(c.queuePair());
        }
        peer = cmConnections.getFirst().peerRegion();
        checkPeerRegion();
        description = "verbs " + context.name() + ", " + n + " RC QP(s) by rdma_cm "
                + (options.isServer() ? "(server, port " : "with " + options.server() + " (port ")
                + options.tcpPort() + ")";
    }

    private String localIpv4(int port, String device) {
        int length = context.queryPort(port).gidTableLength();
        for (int i = 0; i < length; i++) {
            Gid gid = context.queryGid(port, i);
            if (gid.isIpv4Mapped()) {
                long a = gid.low();
                return ((a >>> 24) & 0xff) + "." + ((a >>> 16) & 0xff) + "." + ((a >>> 8) & 0xff) + "." + (a & 0xff);
            }
        }
        throw new BenchFailedException(device + " port " + port + " has no IPv4 address for rdma_cm to listen on");
    }

    private RemoteRegion offer() {
        return new RemoteRegion(region.address(), region.remoteKey(), dataBytes + CONTROL_BYTES);
    }

    private void checkPeerRegion() {
        if (peer.length() != dataBytes + CONTROL_BYTES) {
            throw new BenchFailedException("the peer's buffer has " + peer.length() + " bytes, this side's "
                    + (dataBytes + CONTROL_BYTES) + ": both sides need the same -s/-a and -q");
        }
    }

    /** @return one line: device, QPs, how they were connected */
    String description() {
        return description + ", " + readsInFlight + " READs/atomics in flight per QP at most";
    }

    @Override
    public MemorySegment buffer() {
        return buffer.asSlice(0, dataBytes);
    }

    @Override
    public long bufferBytes() {
        return dataBytes;
    }

    @Override
    public int completionCapacity() {
        return COMPLETIONS;
    }

    @Override
    public int queuePairs() {
        return batches.length;
    }

    @Override
    public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        batches[qp].read(wrId, region, localOffset, bytes, peer.address() + remoteOffset, peer.remoteKey(), signaled)
                .post();
    }

    @Override
    public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        SendBatch b = batches[qp];
        if (bytes <= inlineSize) {
            b.writeInline(wrId, region, localOffset, bytes, peer.address() + remoteOffset, peer.remoteKey(), signaled);
        } else {
            b.write(wrId, region, localOffset, bytes, peer.address() + remoteOffset, peer.remoteKey(), signaled);
        }
        b.post();
    }

    @Override
    public void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                       long wrId, boolean signaled) {
        SendBatch b = batches[qp];
        long remote = peer.address() + remoteOffset;
        if (type == AtomicType.CMP_AND_SWAP) {
            b.compareAndSwap(wrId, region, localOffset, remote, peer.remoteKey(), compareOrAdd, swap, signaled);
        } else {
            b.fetchAndAdd(wrId, region, localOffset, remote, peer.remoteKey(), compareOrAdd, signaled);
        }
        b.post();
    }

    @Override
    public void send(int qp, long localOffset, int bytes, long wrId, boolean signaled) {
        SendBatch b = batches[qp];
        if (bytes <= inlineSize) {
            b.sendInline(wrId, region, localOffset, bytes, signaled);
        } else {
            b.send(wrId, region, localOffset, bytes, signaled);
        }
        b.post();
    }

    @Override
    public void receive(int qp, long localOffset, int bytes, long wrId) {
        receives[qp].receive(wrId, region, localOffset, bytes).post();
    }

    @Override
    public int receiveDepth() {
        return receiveDepth;
    }

    @Override
    public int poll(long[] wrIds) {
        if (heldCount > 0) {
            return takeHeld(wrIds);
        }
        return pollDevice(wrIds);
    }

    private int pollDevice(long[] wrIds) {
        WorkCompletions wc = completions;
        int n = cq.poll(wc);
        for (int i = 0; i < n; i++) {
            if (wc.status(i) != CompletionStatus.SUCCESS) {
                throw new BenchFailedException("work request " + wc.workRequestId(i) + " failed: status "
                        + wc.status(i) + " (vendor error " + wc.vendorError(i) + ")");
            }
            wrIds[i] = wc.workRequestId(i);
        }
        return n;
    }

    /** Hands out completions a control write polled past, oldest first. */
    private int takeHeld(long[] wrIds) {
        int n = Math.min(wrIds.length, heldCount);
        System.arraycopy(held, 0, wrIds, 0, n);
        heldCount -= n;
        System.arraycopy(held, n, held, 0, heldCount);
        return n;
    }

    /**
     * Client: writes {@code value} into the server's command word and waits for the RDMA WRITE's
     * completion (control path; nothing else may be in flight).
     *
     * @param value a size number or {@link #DONE}; it must fit in an {@code int}
     */
    void sendCommand(long value, Duration timeout) {
        controlWrite(sealed(value), dataBytes, timeout);
    }

    /** Server: writes {@code value} into the client's acknowledgement word. */
    void acknowledge(long value, Duration timeout) {
        controlWrite(sealed(value), dataBytes + 8, timeout);
    }

    /** @return the command the client last wrote here completely (0 before the first) */
    long command() {
        long value = unsealed((long) LONG.getVolatile(buffer, dataBytes));
        if (value != TORN) {
            lastCommand = value;
        }
        return lastCommand;
    }

    /** @return the acknowledgement the server last wrote here completely (0 before the first) */
    long acknowledgement() {
        long value = unsealed((long) LONG.getVolatile(buffer, dataBytes + 8));
        if (value != TORN) {
            lastAcknowledgement = value;
        }
        return lastAcknowledgement;
    }

    /**
     * A control word as it is written: the value in the low 32 bits and its complement in the high
     * 32. An 8-byte RDMA WRITE is not atomic for a CPU that reads the word meanwhile on Soft-RoCE
     * (the responder copies the payload with memcpy: a read may see the new low half beside the old
     * high half, softroce/README.md), and the server once took such a half-written "done" for size
     * number 255. A copy that runs forward leaves either the old or the new value whole wherever
     * the halves agree ({@link #unsealed}).
     *
     * @param value a value that fits in an {@code int}
     * @return the word to write
     * @throws IllegalArgumentException if it does not fit
     */
    static long sealed(long value) {
        if (value != (int) value) {
            throw new IllegalArgumentException("a control value must fit in 32 bits, got " + value);
        }
        return (value & 0xFFFF_FFFFL) | ((long) ~(int) value << 32);
    }

    /**
     * @param word a control word as read
     * @return its value, or {@link #TORN} when its halves disagree (half written, or never written)
     */
    static long unsealed(long word) {
        int value = (int) word;
        return (int) (word >>> 32) == ~value ? value : TORN;
    }

    /** @return whether the peer is gone: its TCP connection closed, or the first QP left RTS */
    boolean peerLeft() {
        if (exchange != null) {
            return exchange.peerLeft();
        }
        QueuePairState state = queuePairs.getFirst().state();
        return state != QueuePairState.READY_TO_SEND;
    }

    private void controlWrite(long value, long remoteOffset, Duration timeout) {
        long stage = dataBytes + 16;
        LONG.setVolatile(buffer, stage, value);
        batches[0].write(CONTROL_ID, region, stage, 8, peer.address() + remoteOffset, peer.remoteKey(), true).post();
        long deadline = System.nanoTime() + timeout.toNanos();
        long[] ids = controlIds;
        boolean done = false;
        while (!done) {
            int n = pollDevice(ids);
            for (int i = 0; i < n; i++) {
                if (ids[i] == CONTROL_ID) {
                    done = true;
                } else if (heldCount == held.length) {
                    throw new BenchFailedException("more completions arrived during a control write than the "
                            + "completion queue holds (" + held.length + ")");
                } else {
                    held[heldCount++] = ids[i];
                }
            }
            if (!done && System.nanoTime() - deadline > 0) {
                throw new BenchTimeoutException("the control RDMA WRITE did not complete in " + timeout.toMillis() + " ms");
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeAll();
    }

    private void closeAll() {
        List<AutoCloseable> order = new ArrayList<>();
        order.addAll(cmConnections);
        order.addAll(queuePairs);
        order.addAll(prepared);
        order.add(listener);
        order.add(exchange);
        order.add(completions);
        order.add(region);
        order.add(arena);
        order.add(cq);
        order.add(pd);
        order.add(context);
        RuntimeException first = null;
        for (AutoCloseable c : order) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new BenchFailedException(e.getMessage());
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
