package io.remus.core.rpc;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemusException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;

/**
 * A node's RPC endpoint in the style of LITE (Tsai and Zhang, "LITE Kernel RDMA Support for Datacenter
 * Applications", SOSP 2017): request/response calls between any two nodes, with one method registry.
 *
 * <p><b>Transport.</b> Each endpoint registers one region holding, for every node id {@code p}, a
 * request ring and a response ring of {@code ringSlots} fixed-size slots ({@value #SLOT_BYTES} bytes: a
 * 16-byte header and up to {@value #MAX_PAYLOAD} payload bytes; longer payloads are refused). A call
 * writes its request into slot {@code i} of the caller's request ring in the callee's region with one
 * RDMA WRITE_WITH_IMMEDIATE; the callee answers into slot {@code i} of its response ring in the
 * caller's region the same way. The 32-bit immediate carries the direction, the sender's node id and
 * the slot, so a receiver learns of every message from one completion on its single receive queue (a
 * shared receive queue of zero-length receives, reposted as they are consumed) instead of polling every
 * ring, as FaRM's ring messaging does (Dragojević et al., NSDI 2014).
 *
 * <p>The region, {@code maxNodes * ringSlots} slots per area, slot {@code (p, i)} of an area at
 * {@code ((area * maxNodes + p) * ringSlots + i) * SLOT_BYTES}; peers write only the first two areas:
 * <pre>
 * +--------------------+---------------------+---------------------+----------------------+
 * | requests from p, i | responses from p, i | staged requests     | staged responses     |
 * | (peer p's calls)   | (my calls to p)     | (sources of writes) | (sources of writes)  |
 * +--------------------+---------------------+---------------------+----------------------+
 * slot: | callId: long | method id or status: int | payload length: int | payload: 0..256 bytes |
 * immediate: | response: 1 bit | sender node id: 15 bits | slot: 16 bits |
 * </pre>
 *
 * <p><b>Credits.</b> A caller holds, per peer, one credit per request slot; a call takes the lowest
 * free slot and its response returns it (the response is the credit return: LITE's piggy-backed
 * credits), so a caller never has more than {@code ringSlots} unanswered requests in a peer's ring and
 * never overwrites an unserved request. A caller without credit serves and drains its own queue until
 * its deadline, then fails with {@link RemoteTimeoutException}. A call that timed out keeps its slot
 * until its response comes, so a peer that never answers ends with every credit held. The receive queue holds
 * {@code (2 * ringSlots + 1) * maxNodes} receives, the most messages the credits and the probes (below) let be in
 * flight towards one endpoint, so a WRITE_WITH_IMMEDIATE never meets a receiver-not-ready peer.
 *
 * <p><b>Round trips.</b> A call costs one WRITE_WITH_IMMEDIATE from caller to callee and one back: one
 * network round trip, expected and worst case (waiting for credit adds waiting, not operations). The
 * callee's method runs when the callee's thread is in {@link #serve}, {@link #call} or
 * {@link PendingCall#await}. An endpoint belongs to the first Java thread that calls or serves on it
 * (set-up, {@link #connect} and {@link #register}, may happen on another thread before); use from
 * another thread throws {@link ThreadConfinementException}. Progress: every wait is blocking and
 * bounded by the caller's deadline; a served request's response waits for send-queue room, which the
 * credits keep available.
 *
 * <p><b>Allocation.</b> {@link #callLong} and {@link #call(int, int, MemorySegment, MemorySegment, Duration)}
 * to methods registered with {@link #registerLong} or as an {@link RpcSegmentMethod} allocate nothing
 * once warm, on either side (a failed call allocates its exception). The {@code byte[]} calls and
 * {@link RpcMethod}s allocate their arrays, and {@link #callAsync} its {@link PendingCall}.
 *
 * <p><b>Ordering and linearization.</b> Calls from one caller to one callee are served in the order
 * they were made (one queue pair, in-order delivery, one receive queue served in completion order). A
 * call takes effect when the callee's method runs, between the request's arrival and the response's
 * send.
 *
 * <p><b>Lost peers and their return.</b> A write to a peer that completes in error (retry exceeded,
 * remote access error) marks that peer lost: its unanswered calls fail with {@link PeerUnreachableException}
 * at once (the fabric's transport timeout bounds when the error completion comes; a call's own deadline
 * bounds its wait in any case), and so does every call to it for the next {@link #retryLostPeersAfter retry
 * interval} (default {@link #DEFAULT_RETRY_INTERVAL}). The first call after the interval revives the queue
 * pair, as a compute thread recovers one: it waits until every write posted to the peer has completed, resets
 * the queue pair, and posts a <em>probe</em>, a zero-length WRITE_WITH_IMMEDIATE that names no ring slot and
 * that the peer drops; the call waits for the probe's completion within its own deadline. A probe that
 * completes makes the peer callable again; one that fails (or a deadline reached first) fails the call with
 * {@link PeerUnreachableException} and starts a new interval. A request or probe that arrives from a lost
 * peer revives it at once on the serving side, so that its responses go out again. Probes take no ring slot,
 * so a peer that stays away costs no credit however often it is retried.
 *
 * <p>The slots of a lost peer's unanswered calls stay held (their calls are failed, not freed), since
 * their requests may have reached the peer and be served, and answered into the slot, later. A held slot is
 * freed by its own response, or when a response comes to a call made after the revival: the peer serves
 * its receive queue in order, and every request that reached it before the revival reached it before that
 * call's, so its response, if any, was sent first on the same queue pair and has landed; none can land
 * after. (A method that serves nested calls while it runs can answer out of order; a nested answer of that
 * kind frees a held slot whose response may still come and then be counted in {@link #unmatchedResponses}.)
 * A peer all of whose slots a loss left held has no credit until one of them is answered.
 *
 * <p><b>Restarted peers.</b> A peer whose process was killed and started again is a new incarnation of its node
 * ({@link FabricNode#incarnation()}) with new memory, so new rings. Its old incarnation's losses go as above: the
 * writes in flight to it complete in error, its unanswered calls fail with {@link PeerUnreachableException}, and
 * the next probe resets the queue pair, which then reaches the new incarnation ({@link QueuePair#peerIncarnation()}).
 * With a {@link RingResolver} ({@link #resolveRingsWith}), the probe then asks it for the rings that incarnation
 * published, waiting no longer than the deadline of the call (or serve) that probes; while it has none the peer
 * stays lost and the call fails with {@link PeerRestartedException}, and the next interval asks again. Once it has
 * them, the endpoint writes to the new rings from then on, frees the slots the old incarnation's calls held (none
 * of them can be answered: their requests are in the old memory), drops the responses staged for the old
 * incarnation's requests, and posts its probe to the new rings; the call that probed goes on to the new incarnation.
 * Cost of a re-learn: the reset (verbs: a new connection), the resolver's operations (the cluster's: a name
 * lookup's READs and one READ) and the probe's one WRITE_WITH_IMMEDIATE. Without a resolver a restarted peer stays
 * lost.
 *
 * <p>Call ids carry the caller's incarnation: the top bits ({@value #TAG_BITS}) of every call id are a tag of the
 * caller node's incarnation, the low {@value #COUNTER_BITS} bits count its calls. A response always names the call
 * id of its request, so one meant for an old incarnation of a caller that lands in the new incarnation's ring
 * matches none of its calls (counted in {@link #unmatchedResponses}): a call in flight to or from an old incarnation
 * fails typed (or times out) and is never answered by or for the new one. On the serving side the tag tells which
 * incarnation sent a request, so a response staged while the caller was lost is sent after the re-learn only when
 * it answers the incarnation now reached.
 *
 * <p>Setting up: each node creates its endpoint ({@link #create}, which creates the node's receive
 * queue, so the node must not have one yet), exchanges {@link #rings()} with its peers out of band, and
 * then {@link #connect}s to each peer it calls or is called by (both sides connect); or, with a
 * {@link RingResolver}, {@link #connect(int, Duration)}s by node id.
 */
public final class RpcEndpoint implements AutoCloseable {
    /** The largest payload, request or response, in bytes. */
    public static final int MAX_PAYLOAD = 256;
    /** Bytes per ring slot: callId (8), method id or status (4), payload length (4), payload. */
    public static final int SLOT_BYTES = 16 + MAX_PAYLOAD;
    /** The most node ids an endpoint addresses (15 bits of the immediate). */
    public static final int MAX_NODES = 1 << 15;
    /** The most slots a ring holds (16 bits of the immediate, the last value marking a probe). */
    public static final int MAX_RING_SLOTS = (1 << 16) - 1;
    /** How long a lost peer is failed at once before a call probes it again: 10 milliseconds. */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofMillis(10);

    private static final int RESPONSE_BIT = 1 << 31;
    private static final int STATUS_OK = 0;
    private static final int STATUS_UNKNOWN_METHOD = 1;
    private static final int STATUS_FAILED = 2;
    private static final int AREAS = 4; // incoming requests, incoming responses, staged requests, staged responses
    private static final int IN_REQUESTS = 0;
    private static final int IN_RESPONSES = 1;
    private static final int OUT_REQUESTS = 2;
    private static final int OUT_RESPONSES = 3;
    private static final int BATCH = 16;
    /** The immediate's slot field of a probe: no ring slot. */
    private static final int PROBE_SLOT = 0xFFFF;
    /** Set in a work request id whose write is a probe; the low 32 bits are the peer. */
    private static final long PROBE_WR = 1L << 32;
    /** Set in a work request id whose write is a response; bits 40 and up are its slot, the low 32 the peer. */
    private static final long RESPONSE_WR = 1L << 33;
    /** Bits of a call id that count the caller's calls. */
    private static final int COUNTER_BITS = 40;
    /** Bits of a call id above the counter (the sign bit left clear) that tag the caller's incarnation. */
    private static final int TAG_BITS = 63 - COUNTER_BITS;
    private static final byte[] NO_BYTES = new byte[0];
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FabricNode node;
    private final int nodeId;
    private final int maxNodes;
    private final int ringSlots;
    private final boolean credits;
    private final RegisteredMemory memory;
    private final MemorySegment seg;
    private final CompletionQueue receiveCq;
    private final CompletionQueue sendCq;
    private final ReceiveQueue receiveQueue;
    private final int sendQueueDepth;
    private final QueuePair[] qps;
    private final RemoteRegion[] peerRings;
    private final PendingCall[][] inFlight;
    private final int[] unreaped;
    /** Per peer: the status that lost it, or null while it is callable. */
    private final CompletionStatus[] gone;
    /** Per lost peer: when it was lost or its last probe failed. */
    private final long[] lostAt;
    /** Per lost peer: whether a probe is posted and has not completed. */
    private final boolean[] probing;
    /** Per peer: the first call id after its last revival; a response to such a call frees older held slots. */
    private final long[] revivedAt;
    /** Per peer: slots held by calls a loss failed. */
    private final int[] heldByLost;
    /** Per caller, made when one of its responses first fails: which staged responses are yet to reach it. */
    private final boolean[][] undeliveredResponses;
    private final int[] nextSlot;
    /** Per peer: the incarnation of the node its rings are of (0 where the fabric cannot tell). */
    private final long[] ringsIncarnation;
    private RingResolver resolver;
    /** The deadline of the outermost wait in progress, which bounds a re-learn on the serving path. */
    private long progressDeadline;
    private long relearned;
    private long retryNanos = DEFAULT_RETRY_INTERVAL.toNanos();
    private long probes;
    private long revivals;
    /** Registered method ids, ascending, and beside each its {@link RpcMethod} or {@link RpcSegmentMethod}. */
    private int[] methodIds = new int[0];
    private Object[] methods = new Object[0];
    /** The request of a {@link RpcSegmentMethod} being served, and its response. */
    private final MemorySegment servedRequest = MemorySegment.ofArray(new byte[MAX_PAYLOAD]);
    private final MemorySegment servedResponse = MemorySegment.ofArray(new byte[MAX_PAYLOAD]);
    /** {@link #callLong}'s argument and result. */
    private final MemorySegment longRequest = MemorySegment.ofArray(new byte[Long.BYTES]);
    private final MemorySegment longResponse = MemorySegment.ofArray(new byte[Long.BYTES]);
    /** Per peer and slot, the reused record of a blocking segment call; made on first use. */
    private final PendingCall[][] blockingCalls;
    private final Completions received = new Completions(BATCH);
    private final Completions sent = new Completions(BATCH);
    private final ReceiveRequests reposts = new ReceiveRequests(BATCH);
    private final WorkRequests work = new WorkRequests(1);
    private long nextCallId;
    private long writesWithImmediate;
    private long requestsServed;
    private long unmatchedResponses;
    private boolean closed;
    private Thread owner;

    private RpcEndpoint(FabricNode node, int maxNodes, int ringSlots, boolean credits) {
        this.node = node;
        this.nodeId = node.nodeId();
        this.maxNodes = maxNodes;
        this.ringSlots = ringSlots;
        this.credits = credits;
        long bytes = (long) AREAS * maxNodes * ringSlots * SLOT_BYTES;
        int receives = Math.multiplyExact(2 * ringSlots + 1, maxNodes);
        this.sendQueueDepth = 2 * ringSlots + 1;
        this.memory = node.allocate(bytes);
        this.seg = memory.segment();
        this.receiveCq = node.createCompletionQueue(receives);
        this.receiveQueue = node.createReceiveQueue(receiveCq, receives);
        this.sendCq = node.createCompletionQueue(Math.multiplyExact(sendQueueDepth, maxNodes));
        node.publish(memory);
        this.qps = new QueuePair[maxNodes];
        this.peerRings = new RemoteRegion[maxNodes];
        this.inFlight = new PendingCall[maxNodes][ringSlots];
        this.blockingCalls = new PendingCall[maxNodes][];
        this.unreaped = new int[maxNodes];
        this.gone = new CompletionStatus[maxNodes];
        this.lostAt = new long[maxNodes];
        this.probing = new boolean[maxNodes];
        this.revivedAt = new long[maxNodes];
        this.heldByLost = new int[maxNodes];
        this.undeliveredResponses = new boolean[maxNodes][];
        this.nextSlot = new int[maxNodes];
        this.ringsIncarnation = new long[maxNodes];
        this.nextCallId = tag(node.incarnation()) | 1;
        ReceiveRequests all = new ReceiveRequests(receives);
        for (int i = 0; i < receives; i++) {
            all.add(0, memory.address(), 0, memory.lkey());
        }
        receiveQueue.post(all);
    }

    /**
     * Creates the endpoint of {@code node}: registers and publishes its rings and creates the node's
     * receive queue. Blocking only in the fabric's set-up calls; no RDMA operation.
     *
     * @param node the node, which must not have a receive queue yet
     * @param maxNodes node ids this endpoint talks to are {@code 0..maxNodes-1}; 1 to {@value #MAX_NODES}
     * @param ringSlots slots per ring, the credits a caller holds per peer; 1 to {@value #MAX_RING_SLOTS}
     * @return the endpoint
     * @throws BadArgumentException naming a bad {@code maxNodes} or {@code ringSlots}, or when
     * {@code node}'s id is not below {@code maxNodes}
     */
    public static RpcEndpoint create(FabricNode node, int maxNodes, int ringSlots) {
        return create(node, maxNodes, ringSlots, true);
    }

    /** As {@link #create(FabricNode, int, int)}; {@code credits == false} is a broken twin for tests only. */
    static RpcEndpoint create(FabricNode node, int maxNodes, int ringSlots, boolean credits) {
        Objects.requireNonNull(node, "node");
        if (maxNodes < 1 || maxNodes > MAX_NODES) {
            throw new BadArgumentException("maxNodes must be 1 to " + MAX_NODES + ", got " + maxNodes);
        }
        if (ringSlots < 1 || ringSlots > MAX_RING_SLOTS) {
            throw new BadArgumentException("ringSlots must be 1 to " + MAX_RING_SLOTS + ", got " + ringSlots);
        }
        if (node.nodeId() < 0 || node.nodeId() >= maxNodes) {
            throw new BadArgumentException("node id " + node.nodeId() + " is not below maxNodes " + maxNodes);
        }
        return new RpcEndpoint(node, maxNodes, ringSlots, credits);
    }

    /** {@return this endpoint's node id} */
    public int nodeId() {
        return nodeId;
    }

    /** {@return slots per ring: the credits a caller holds towards each peer} */
    public int ringSlots() {
        return ringSlots;
    }

    /**
     * Sets how long calls to a lost peer fail at once before the next call probes it (see the class
     * comment, "Lost peers and their return"). Wait-free, no RDMA operation.
     *
     * @param interval zero (probe at the next call) or positive; {@link Timeouts#FOREVER} never probes, so
     *                 a lost peer stays lost unless it calls this endpoint
     * @throws BadArgumentException naming a negative interval or one above {@link Timeouts#MAX_FINITE}
     *                              that is not {@link Timeouts#FOREVER}
     */
    public void retryLostPeersAfter(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (!interval.isZero()) {
            Timeouts.require(interval, "interval");
        }
        retryNanos = Timeouts.isForever(interval) ? Long.MAX_VALUE : interval.toNanos();
    }

    /** {@return the interval of {@link #retryLostPeersAfter}} */
    public Duration retryInterval() {
        return retryNanos == Long.MAX_VALUE ? Timeouts.FOREVER : Duration.ofNanos(retryNanos);
    }

    /** {@return probes this endpoint posted to lost peers} */
    public long probes() {
        return probes;
    }

    /** {@return lost peers made callable again by a completed probe} */
    public long revivals() {
        return revivals;
    }

    /**
     * Whether a peer is lost: calls to it fail or probe it. Wait-free, no RDMA operation.
     *
     * @param peer a node id of this endpoint's range
     * @return whether {@code peer} is lost
     * @throws io.remus.core.error.BadArgumentException when {@code peer} is outside the range
     */
    public boolean isLost(int peer) {
        requirePeerId(peer);
        return gone[peer] != null;
    }

    /**
     * {@return the credits this endpoint holds towards {@code peer}: its request slots that no call holds,
     *          neither one in flight nor one that a loss failed before it was answered; wait-free, no RDMA
     *          operation}
     *
     * @param peer a node id below {@code maxNodes}
     * @throws BadArgumentException naming a bad peer id
     */
    public int freeCredits(int peer) {
        requirePeerId(peer);
        int free = 0;
        for (PendingCall call : inFlight[peer]) {
            if (call == null) {
                free++;
            }
        }
        return free;
    }

    /** {@return where this endpoint's rings are, for peers' {@link #connect}; wait-free} */
    public RemoteRegion rings() {
        return new RemoteRegion(nodeId, memory.address(), memory.length(), memory.rkey());
    }

    /**
     * Connects to a peer's endpoint. Blocking up to {@code timeout} (the fabric's connect); no RDMA
     * operation.
     *
     * @param peer the peer's {@link #rings()}
     * @param timeout the longest wait for the connection, positive
     * @throws BadArgumentException naming the peer when its id is out of range, it is already connected,
     * or its region is smaller than this endpoint's geometry needs
     */
    public void connect(RemoteRegion peer, Duration timeout) {
        Objects.requireNonNull(peer, "peer");
        Timeouts.require(timeout, "timeout");
        requireOpen();
        if (owner != null) {
            confined();
        }
        int p = peer.nodeId();
        requirePeerId(p);
        if (qps[p] != null) {
            throw new BadArgumentException("node " + p + " is already connected");
        }
        if (peer.length() < memory.length()) {
            throw new BadArgumentException("node " + p + "'s rings are " + peer.length() + " bytes, need "
                    + memory.length() + " (same maxNodes and ringSlots on both sides)");
        }
        qps[p] = node.connect(p, sendCq, sendQueueDepth, timeout);
        peerRings[p] = peer;
        ringsIncarnation[p] = qps[p].peerIncarnation();
    }

    /**
     * Connects to peer {@code peer} by node id, its rings found by the {@link #resolveRingsWith resolver}: connects
     * a queue pair, then asks the resolver for the rings of the incarnation it reached. Blocking, bounded by
     * {@code timeout} (the fabric's connect and the resolver's wait together); RDMA operations: the resolver's.
     *
     * @param peer    the peer's node id
     * @param timeout the longest wait, positive
     * @throws BadArgumentException   naming the peer when its id is out of range, it is already connected, or its
     *                                rings are smaller than this endpoint's geometry needs; or when this endpoint has
     *                                no resolver
     * @throws RemoteTimeoutException naming the peer and its incarnation when the resolver had no rings for it
     *                                within {@code timeout}
     */
    public void connect(int peer, Duration timeout) {
        Timeouts.require(timeout, "timeout");
        requireOpen();
        if (owner != null) {
            confined();
        }
        requirePeerId(peer);
        if (qps[peer] != null) {
            throw new BadArgumentException("node " + peer + " is already connected");
        }
        if (resolver == null) {
            throw new BadArgumentException("the RPC endpoint of node " + nodeId + " has no ring resolver to connect to"
                    + " node " + peer + " by id (resolveRingsWith, or connect(RemoteRegion, Duration))");
        }
        long deadline = deadline(timeout);
        QueuePair qp = node.connect(peer, sendCq, sendQueueDepth, timeout);
        try {
            long incarnation = qp.peerIncarnation();
            RemoteRegion rings = resolver.rings(peer, incarnation, left(deadline));
            if (rings == null) {
                throw new RemoteTimeoutException("node " + peer + " (incarnation " + Long.toHexString(incarnation)
                        + ") published no RPC rings within " + timeout);
            }
            requireFits(peer, rings);
            qps[peer] = qp;
            peerRings[peer] = rings;
            ringsIncarnation[peer] = incarnation;
        } catch (RuntimeException e) {
            qp.close();
            throw e;
        }
    }

    /**
     * Sets where this endpoint finds a peer's rings by node id and incarnation: for {@link #connect(int, Duration)}
     * and to re-learn the rings of a restarted peer (see "Restarted peers" in the class comment). Set it before
     * the endpoint's thread calls or serves, or on that thread. Wait-free, no RDMA operation.
     *
     * @param resolver the resolver
     */
    public void resolveRingsWith(RingResolver resolver) {
        Objects.requireNonNull(resolver, "resolver");
        if (owner != null) {
            confined();
        }
        this.resolver = resolver;
    }

    /**
     * {@return the incarnation of {@code peer}'s node whose rings this endpoint writes to (0 where the fabric cannot
     *          tell, or while the peer is not connected); wait-free, no RDMA operation}
     *
     * @param peer a node id below {@code maxNodes}
     * @throws BadArgumentException naming a bad peer id
     */
    public long peerIncarnation(int peer) {
        requirePeerId(peer);
        return ringsIncarnation[peer];
    }

    /** {@return the restarted peers whose new rings this endpoint learned (see "Restarted peers")} */
    public long relearnedPeers() {
        return relearned;
    }

    private void requireFits(int p, RemoteRegion rings) {
        if (rings.nodeId() != p) {
            throw new BadArgumentException("the rings given for node " + p + " are node " + rings.nodeId() + "'s");
        }
        if (rings.length() < memory.length()) {
            throw new BadArgumentException("node " + p + "'s rings are " + rings.length() + " bytes, need "
                    + memory.length() + " (same maxNodes and ringSlots on both sides)");
        }
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - ThreadTime.nanoTime()));
    }

    /** {@return the call-id tag of an incarnation: its bits folded into {@value #TAG_BITS}, shifted above the counter} */
    private static long tag(long incarnation) {
        long folded = incarnation ^ (incarnation >>> TAG_BITS) ^ (incarnation >>> (2 * TAG_BITS));
        return (folded & ((1L << TAG_BITS) - 1)) << COUNTER_BITS;
    }

    /**
     * Registers {@code method} under {@code methodId}, before or on the endpoint's thread. Wait-free, no
     * RDMA operation.
     *
     * @param methodId the method's id, 0 or more
     * @param method   the method
     * @throws BadArgumentException naming the id when it is negative or already registered
     */
    public void register(int methodId, RpcMethod method) {
        Objects.requireNonNull(method, "method");
        add(methodId, method);
    }

    /**
     * Registers {@code method}, which serves requests without allocating, under {@code methodId}, before
     * or on the endpoint's thread. Wait-free, no RDMA operation.
     *
     * @param methodId the method's id, 0 or more
     * @param method   the method
     * @throws BadArgumentException naming the id when it is negative or already registered
     */
    public void register(int methodId, RpcSegmentMethod method) {
        Objects.requireNonNull(method, "method");
        add(methodId, method);
    }

    private void add(int methodId, Object method) {
        if (owner != null) {
            confined();
        }
        if (methodId < 0) {
            throw new BadArgumentException("method id must be 0 or more, got " + methodId);
        }
        int at = Arrays.binarySearch(methodIds, methodId);
        if (at >= 0) {
            throw new BadArgumentException("method " + methodId + " is already registered");
        }
        int insert = -at - 1;
        int[] ids = new int[methodIds.length + 1];
        Object[] ms = new Object[methods.length + 1];
        System.arraycopy(methodIds, 0, ids, 0, insert);
        System.arraycopy(methods, 0, ms, 0, insert);
        ids[insert] = methodId;
        ms[insert] = method;
        System.arraycopy(methodIds, insert, ids, insert + 1, methodIds.length - insert);
        System.arraycopy(methods, insert, ms, insert + 1, methods.length - insert);
        methodIds = ids;
        methods = ms;
    }

    /** {@return the method registered under {@code methodId}, or null; allocates nothing} */
    private Object method(int methodId) {
        int at = Arrays.binarySearch(methodIds, methodId);
        return at >= 0 ? methods[at] : null;
    }

    /**
     * Registers a method of one long to one long (8-byte little-endian payloads), for
     * {@link #callLong}; serving it allocates nothing. As {@link #register(int, RpcMethod)}.
     *
     * @param methodId the method's id, 0 or more
     * @param method   the method, from the argument to the result
     */
    public void registerLong(int methodId, LongUnaryOperator method) {
        Objects.requireNonNull(method, "method");
        register(methodId, (int caller, MemorySegment request, int length, MemorySegment response) -> {
            if (length != Long.BYTES) {
                throw new BadArgumentException("method " + methodId + " takes 8 bytes, got " + length);
            }
            response.set(LE_LONG, 0, method.applyAsLong(request.get(LE_LONG, 0)));
            return Long.BYTES;
        });
    }

    /**
     * Calls {@code methodId} on {@code peer} and waits for its response, serving requests that reach this
     * endpoint meanwhile. Blocking, bounded by {@code timeout} (credit wait and response wait together).
     * RDMA: one WRITE_WITH_IMMEDIATE out and one back (one round trip), expected and worst case.
     * Linearizes when the peer's method runs.
     *
     * @param peer the called node id (may be this node: the call loops back through the NIC)
     * @param methodId the method's id on the peer
     * @param payload the request, at most {@value #MAX_PAYLOAD} bytes
     * @param timeout the longest wait, positive
     * @return the response's bytes
     * @throws BadArgumentException naming a bad peer id, an unconnected peer or an oversize payload
     * @throws RemoteTimeoutException when no credit or no response came within {@code timeout}
     * @throws RpcUnknownMethodException when the peer has no such method
     * @throws RpcMethodFailedException when the peer's method failed
     * @throws PeerUnreachableException when the peer is lost (see "Lost peers and their return")
     */
    public byte[] call(int peer, int methodId, byte[] payload, Duration timeout) {
        Timeouts.require(timeout, "timeout");
        long deadline = deadline(timeout);
        return callAsync(peer, methodId, payload, deadline).await(deadline);
    }

    /**
     * {@link #call} of a method registered with {@link #registerLong}.
     *
     * @param peer     the called node id (may be this node)
     * @param methodId the method's id on the peer
     * @param arg      the method's argument
     * @param timeout  the longest wait, positive
     * @return the method's result
     */
    public long callLong(int peer, int methodId, long arg, Duration timeout) {
        longRequest.set(LE_LONG, 0, arg);
        int n = call(peer, methodId, longRequest, longResponse, timeout);
        if (n != Long.BYTES) {
            throw new RpcMethodFailedException(peer, methodId, "returned " + n + " bytes, not 8");
        }
        return longResponse.get(LE_LONG, 0);
    }

    /**
     * {@link #call(int, int, byte[], Duration)} from and into memory the caller owns: allocates nothing
     * when the call succeeds (a failure allocates its exception). Blocking, bounded by {@code timeout};
     * RDMA: one WRITE_WITH_IMMEDIATE out and one back (one round trip), expected and worst case.
     * Linearizes when the peer's method runs.
     *
     * @param peer     the called node id (may be this node)
     * @param methodId the method's id on the peer
     * @param request  the request, all of its bytes, at most {@value #MAX_PAYLOAD}
     * @param response where the response's bytes go, from offset 0; writable
     * @param timeout  the longest wait, positive
     * @return the response's length in bytes
     * @throws BadArgumentException naming a bad peer id, an unconnected peer, an oversize request, a
     *                              closed or read-only segment, or a response longer than
     *                              {@code response} (the method has run then; its response is dropped)
     * @throws RemoteTimeoutException as {@link #call(int, int, byte[], Duration)}
     * @throws RpcUnknownMethodException when the peer has no such method
     * @throws RpcMethodFailedException when the peer's method failed
     * @throws PeerUnreachableException when the peer is lost (see "Lost peers and their return")
     */
    public int call(int peer, int methodId, MemorySegment request, MemorySegment response, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        Timeouts.require(timeout, "timeout");
        if (!request.scope().isAlive() || !response.scope().isAlive()) {
            throw new BadArgumentException("the request or response segment is closed");
        }
        if (response.isReadOnly()) {
            throw new BadArgumentException("the response segment is read-only");
        }
        long deadline = deadline(timeout);
        int length = (int) Math.min(request.byteSize(), MAX_PAYLOAD + 1);
        int slot = startCall(peer, request.byteSize(), deadline);
        PendingCall[] records = blockingCalls[peer];
        if (records == null) {
            records = new PendingCall[ringSlots];
            blockingCalls[peer] = records;
        }
        PendingCall call = records[slot];
        if (call == null) {
            call = new PendingCall(this, peer);
            records[slot] = call;
        }
        call.reuse(methodId, nextCallId++);
        inFlight[peer][slot] = call;
        long stage = offset(OUT_REQUESTS, peer, slot);
        writeHeader(stage, call.callId(), methodId, length);
        MemorySegment.copy(request, 0, seg, stage + 16, length);
        long remote = peerRings[peer].address() + offset(IN_REQUESTS, nodeId, slot);
        post(peer, stage, 16 + length, remote, (nodeId << 16) | slot);
        awaitCall(call, deadline);
        if (call.failure() != null) {
            throw call.failure();
        }
        if (!call.isDone()) {
            throw new RemoteTimeoutException("no response from node " + peer + " to method " + methodId
                    + " (call " + call.callId() + ") before the deadline");
        }
        int n = call.ringLength();
        if (n > response.byteSize()) {
            throw new BadArgumentException("the response of method " + methodId + " on node " + peer + " has " + n
                    + " bytes; the response segment holds " + response.byteSize());
        }
        MemorySegment.copy(seg, offset(IN_RESPONSES, peer, slot) + 16, response, 0, n);
        return n;
    }

    /**
     * Sends a call without waiting for its response; many may be in flight, up to {@link #ringSlots()}
     * per peer, beyond which this waits for credit (serving and draining meanwhile) up to {@code timeout}.
     * Blocking only for credit; RDMA: one WRITE_WITH_IMMEDIATE (the response is one more, taken by
     * {@link PendingCall#await} or any later wait on this endpoint).
     *
     * @param peer     the called node id (may be this node)
     * @param methodId the method's id on the peer
     * @param payload  the request, at most {@value #MAX_PAYLOAD} bytes
     * @param timeout  the longest wait for credit, positive
     * @return the call, to {@link PendingCall#await}
     * @throws BadArgumentException as {@link #call}
     * @throws RemoteTimeoutException when no credit came within {@code timeout}
     * @throws PeerUnreachableException when the peer is lost (see "Lost peers and their return")
     */
    public PendingCall callAsync(int peer, int methodId, byte[] payload, Duration timeout) {
        Timeouts.require(timeout, "timeout");
        return callAsync(peer, methodId, payload, deadline(timeout));
    }

    private PendingCall callAsync(int peer, int methodId, byte[] payload, long deadline) {
        Objects.requireNonNull(payload, "payload");
        int slot = startCall(peer, payload.length, deadline);
        PendingCall call = new PendingCall(this, peer, methodId, nextCallId++);
        inFlight[peer][slot] = call;
        long stage = offset(OUT_REQUESTS, peer, slot);
        writeSlot(stage, call.callId(), methodId, payload);
        long remote = peerRings[peer].address() + offset(IN_REQUESTS, nodeId, slot);
        post(peer, stage, 16 + payload.length, remote, (nodeId << 16) | slot);
        return call;
    }

    /**
     * Checks a call of {@code length} payload bytes to {@code peer}, and waits for its credit and send
     * room.
     *
     * @return the free request slot the call takes
     */
    private int startCall(int peer, long length, long deadline) {
        requireOpen();
        confined();
        requirePeerId(peer);
        if (qps[peer] == null) {
            throw new BadArgumentException("node " + peer + " is not connected");
        }
        if (length > MAX_PAYLOAD) {
            throw new BadArgumentException("payload of " + length + " bytes exceeds " + MAX_PAYLOAD);
        }
        requireCallable(peer, deadline);
        int slot = credits ? freeSlot(peer) : nextSlot[peer]++ % ringSlots;
        if (slot < 0) {
            progressUntil(() -> gone[peer] != null || freeSlot(peer) >= 0, null, deadline);
            if (gone[peer] != null) {
                throw unreachable(peer, gone[peer]);
            }
            slot = freeSlot(peer);
            if (slot < 0) {
                throw new RemoteTimeoutException("no credit for node " + peer + " before the deadline: all "
                        + ringSlots + " ring slots hold unanswered calls");
            }
        }
        awaitSendRoom(peer, deadline);
        return slot;
    }

    /**
     * Serves requests (and takes responses) that arrive within {@code timeout}, returning once at least
     * one message was handled or the deadline passed. Blocking, bounded by {@code timeout}; RDMA: one
     * WRITE_WITH_IMMEDIATE per request served.
     *
     * @param timeout the longest wait, zero or positive
     * @return the number of requests served
     */
    public int serve(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new BadArgumentException("timeout must be zero or positive, got " + timeout);
        }
        requireOpen();
        confined();
        long before = requestsServed;
        long deadline = timeout.isZero() ? ThreadTime.nanoTime() : deadline(Timeouts.require(timeout, "timeout"));
        progressUntil(null, null, deadline);
        return (int) (requestsServed - before);
    }

    /** {@return WRITE_WITH_IMMEDIATE operations this endpoint posted (requests and responses)} */
    public long writesWithImmediate() {
        return writesWithImmediate;
    }

    /** {@return requests this endpoint served} */
    public long requestsServed() {
        return requestsServed;
    }

    /** {@return responses that matched no call in flight (none while credits hold)} */
    public long unmatchedResponses() {
        return unmatchedResponses;
    }

    /**
     * Closes the endpoint's queue pairs, its send completion queue and its memory (not the node). The
     * receive completion queue stays open until the node closes: the node's receive queue, which lives
     * as long as the node, and the queue pairs peers connected to this node deliver into it (verbs
     * refuses to destroy a completion queue that queue pairs still use). Calls still in flight stay
     * unanswered; peers calling this endpoint afterwards see it gone.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (QueuePair qp : qps) {
            if (qp != null) {
                qp.close();
            }
        }
        sendCq.close();
        memory.close();
    }

    /** Waits, without serving, until every posted write has completed; for tests. */
    void awaitSendsCompleted(Duration timeout) {
        long deadline = deadline(timeout);
        while (Arrays.stream(unreaped).anyMatch(u -> u > 0)) {
            reapSends();
            if (ThreadTime.nanoTime() - deadline >= 0) {
                throw new RemoteTimeoutException("writes still in flight at the deadline");
            }
            ThreadTime.onSpinWait();
        }
    }

    /** Waits for {@code call}'s response, serving meanwhile, until the deadline; allocates nothing. */
    void awaitCall(PendingCall call, long deadline) {
        requireOpen();
        confined();
        progressUntil(null, call, deadline);
    }

    /**
     * Handles messages until {@code done} says so, or {@code call} is done, or (both null) at least one
     * message was handled, or the deadline passed. Allocates nothing of its own.
     */
    private void progressUntil(BooleanSupplier done, PendingCall call, long deadline) {
        long outer = progressDeadline;
        progressDeadline = deadline;
        try {
            progressLoop(done, call, deadline);
        } finally {
            progressDeadline = outer;
        }
    }

    private void progressLoop(BooleanSupplier done, PendingCall call, long deadline) {
        int idle = 0;
        while (true) {
            if (done != null ? done.getAsBoolean() : call != null && call.isDone()) {
                return;
            }
            int n = progressOnce();
            if (n > 0) {
                if (done == null && call == null) {
                    return;
                }
                idle = 0;
                continue;
            }
            if (ThreadTime.nanoTime() - deadline >= 0) {
                return;
            }
            if ((++idle & 0x3F) != 0) {
                ThreadTime.onSpinWait();
            } else {
                ThreadTime.yield();
            }
        }
    }

    private int progressOnce() {
        reapSends();
        int n = receiveCq.poll(received);
        if (n == 0) {
            return 0;
        }
        reposts.clear();
        for (int k = 0; k < n; k++) {
            reposts.add(0, memory.address(), 0, memory.lkey());
        }
        receiveQueue.post(reposts);
        for (int k = 0; k < n; k++) {
            if (received.status(k) != CompletionStatus.SUCCESS || received.opcode(k) != Opcode.RECEIVE_WITH_IMMEDIATE) {
                continue;
            }
            int imm = received.immediate(k);
            int sender = (imm >>> 16) & 0x7FFF;
            int slot = imm & 0xFFFF;
            if (sender >= maxNodes) {
                continue;
            }
            if (slot == PROBE_SLOT) {
                if ((imm & RESPONSE_BIT) == 0) {
                    reviveServing(sender);
                }
                continue;
            }
            if (slot >= ringSlots) {
                continue;
            }
            if ((imm & RESPONSE_BIT) != 0) {
                takeResponse(sender, slot);
            } else {
                serveRequest(sender, slot);
            }
        }
        return n;
    }

    private void serveRequest(int caller, int slot) {
        long at = offset(IN_REQUESTS, caller, slot);
        long callId = seg.get(LE_LONG, at);
        int methodId = seg.get(LE_INT, at + 8);
        int length = seg.get(LE_INT, at + 12);
        int status;
        byte[] out = null;
        int segmentOut = 0;
        Object method = method(methodId);
        if (length < 0 || length > MAX_PAYLOAD) {
            status = STATUS_FAILED;
            out = detail("request slot holds payload length " + length);
        } else if (method == null) {
            status = STATUS_UNKNOWN_METHOD;
            out = NO_BYTES;
        } else if (method instanceof RpcSegmentMethod m) {
            MemorySegment.copy(seg, at + 16, servedRequest, 0, length);
            try {
                segmentOut = m.apply(caller, servedRequest, length, servedResponse);
                status = STATUS_OK;
                if (segmentOut < 0 || segmentOut > MAX_PAYLOAD) {
                    status = STATUS_FAILED;
                    out = detail("method returned length " + segmentOut + ", not 0 to " + MAX_PAYLOAD);
                }
            } catch (RuntimeException e) {
                status = STATUS_FAILED;
                out = detail(e.getClass().getName() + ": " + e.getMessage());
            }
        } else {
            byte[] in = new byte[length];
            MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at + 16, in, 0, length);
            try {
                out = ((RpcMethod) method).apply(caller, in);
                status = STATUS_OK;
                if (out == null) {
                    status = STATUS_FAILED;
                    out = detail("method returned null");
                } else if (out.length > MAX_PAYLOAD) {
                    status = STATUS_FAILED;
                    out = detail("method returned " + out.length + " bytes, more than " + MAX_PAYLOAD);
                }
            } catch (RuntimeException e) {
                status = STATUS_FAILED;
                out = detail(e.getClass().getName() + ": " + e.getMessage());
            }
        }
        requestsServed++;
        if (qps[caller] == null) {
            return;
        }
        long stage = offset(OUT_RESPONSES, caller, slot);
        int n;
        if (out == null) {
            n = segmentOut;
            writeHeader(stage, callId, status, n);
            MemorySegment.copy(servedResponse, 0, seg, stage + 16, n);
        } else {
            n = out.length;
            writeSlot(stage, callId, status, out);
        }
        reviveServing(caller);
        if (gone[caller] == null || probing[caller]) {
            awaitSendRoom(caller, Long.MAX_VALUE);
        }
        if (gone[caller] != null && !probing[caller]) {
            undelivered(caller)[slot] = true;
            return;
        }
        postResponse(caller, slot, 16 + n);
    }

    /** Posts the response staged for {@code caller}'s request slot {@code slot}, {@code length} bytes with its header. */
    private void postResponse(int caller, int slot, int length) {
        long remote = peerRings[caller].address() + offset(IN_RESPONSES, nodeId, slot);
        work.clear();
        work.addWriteWithImmediate(RESPONSE_WR | ((long) slot << 40) | caller, memory.address() + offset(OUT_RESPONSES, caller, slot),
                length, memory.lkey(), remote, peerRings[caller].rkey(), RESPONSE_BIT | (nodeId << 16) | slot,
                WorkRequests.SIGNALED);
        unreaped[caller]++;
        writesWithImmediate++;
        qps[caller].post(work);
    }

    /** {@return per request slot of {@code caller}, whether its staged response is yet to reach it; made on first use} */
    private boolean[] undelivered(int caller) {
        boolean[] u = undeliveredResponses[caller];
        if (u == null) {
            u = new boolean[ringSlots];
            undeliveredResponses[caller] = u;
        }
        return u;
    }

    private void takeResponse(int callee, int slot) {
        long at = offset(IN_RESPONSES, callee, slot);
        long callId = seg.get(LE_LONG, at);
        int status = seg.get(LE_INT, at + 8);
        int length = Math.max(0, Math.min(MAX_PAYLOAD, seg.get(LE_INT, at + 12)));
        PendingCall call = inFlight[callee][slot];
        if (call == null || call.callId() != callId) {
            unmatchedResponses++;
            return;
        }
        inFlight[callee][slot] = null;
        if (call.isDone()) {
            heldByLost[callee]--;
            return;
        }
        if (heldByLost[callee] > 0 && call.callId() >= revivedAt[callee]) {
            releaseHeld(callee);
        }
        if (status == STATUS_OK && call.inRing()) {
            call.completeInRing(length);
            return;
        }
        byte[] body = new byte[length];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, at + 16, body, 0, length);
        switch (status) {
            case STATUS_OK -> call.complete(body);
            case STATUS_UNKNOWN_METHOD -> call.fail(new RpcUnknownMethodException(callee, call.methodId()));
            default -> call.fail(new RpcMethodFailedException(callee, call.methodId(),
                    new String(body, StandardCharsets.UTF_8)));
        }
    }

    private void reapSends() {
        int n;
        while ((n = sendCq.poll(sent)) > 0) {
            for (int k = 0; k < n; k++) {
                long id = sent.wrId(k);
                int peer = (int) id;
                CompletionStatus status = sent.status(k);
                unreaped[peer]--;
                if ((id & PROBE_WR) != 0) {
                    probing[peer] = false;
                    if (status == CompletionStatus.SUCCESS) {
                        gone[peer] = null;
                        revivals++;
                    } else {
                        gone[peer] = status;
                        lostAt[peer] = ThreadTime.nanoTime();
                    }
                } else {
                    if ((id & RESPONSE_WR) != 0 && (status != CompletionStatus.SUCCESS || undeliveredResponses[peer] != null)) {
                        undelivered(peer)[(int) (id >>> 40)] = status != CompletionStatus.SUCCESS;
                    }
                    if (status != CompletionStatus.SUCCESS && gone[peer] == null) {
                        markGone(peer, status);
                    }
                }
            }
        }
    }

    /** Fails every unanswered call to {@code peer}; their slots stay held (see the class comment). */
    private void markGone(int peer, CompletionStatus status) {
        gone[peer] = status;
        lostAt[peer] = ThreadTime.nanoTime();
        int held = 0;
        for (int s = 0; s < ringSlots; s++) {
            PendingCall call = inFlight[peer][s];
            if (call != null) {
                held++;
                call.fail(unreachable(peer, status));
            }
        }
        heldByLost[peer] = held;
    }

    /**
     * A response came from {@code peer} to a call made after its last revival: frees every slot that a loss
     * left held (a call in flight that is done), none of which can be answered any more.
     */
    private void releaseHeld(int peer) {
        PendingCall[] slots = inFlight[peer];
        for (int s = 0; s < slots.length; s++) {
            if (slots[s] != null && slots[s].isDone()) {
                slots[s] = null;
            }
        }
        heldByLost[peer] = 0;
    }

    private static PeerUnreachableException unreachable(int peer, CompletionStatus status) {
        return new PeerUnreachableException(status, peer, "node " + peer + " is lost: a write to it completed with " + status);
    }

    /**
     * Returns when {@code peer} is callable; probes it first when it is lost and its retry interval has passed,
     * waiting for the probe until {@code deadline}.
     *
     * @throws PeerUnreachableException when the peer is lost and not revived by the deadline
     */
    private void requireCallable(int peer, long deadline) {
        reapSends();
        if (gone[peer] == null) {
            return;
        }
        if (!probing[peer] && retryNanos != Long.MAX_VALUE && ThreadTime.nanoTime() - lostAt[peer] >= retryNanos) {
            progressUntil(() -> unreaped[peer] == 0, null, deadline);
            if (unreaped[peer] == 0) {
                probe(peer, deadline);
            }
        }
        if (probing[peer]) {
            progressUntil(() -> !probing[peer], null, deadline);
        }
        if (gone[peer] != null) {
            long reached = qps[peer].peerIncarnation();
            if (reached != ringsIncarnation[peer]) {
                throw restarted(peer, reached);
            }
            throw unreachable(peer, gone[peer]);
        }
    }

    /** A request or probe arrived from {@code peer}: probes it now if it is lost and its writes have drained. */
    private void reviveServing(int peer) {
        if (gone[peer] == null || probing[peer] || qps[peer] == null) {
            return;
        }
        reapSends();
        if (gone[peer] != null && !probing[peer] && unreaped[peer] == 0) {
            probe(peer, progressDeadline);
        }
    }

    /**
     * Resets the lost peer's queue pair, whose writes have all completed, and posts a probe to it, then each
     * response to it that did not arrive (a late response of a call it may still hold a slot for: a duplicate of
     * one that did arrive matches no call and is counted in {@link #unmatchedResponses}).
     */
    private void probe(int peer, long deadline) {
        if (qps[peer].inError()) {
            try {
                qps[peer].reset();
            } catch (PeerUnreachableException e) {
                lostAt[peer] = ThreadTime.nanoTime();
                return;
            }
        }
        long reached = qps[peer].peerIncarnation();
        if (reached != ringsIncarnation[peer] && !relearn(peer, reached, deadline)) {
            lostAt[peer] = ThreadTime.nanoTime();
            gone[peer] = CompletionStatus.RETRY_EXCEEDED;
            return;
        }
        revivedAt[peer] = nextCallId;
        probing[peer] = true;
        probes++;
        work.clear();
        work.addWriteWithImmediate(PROBE_WR | peer, memory.address(), 0, memory.lkey(), peerRings[peer].address(),
                peerRings[peer].rkey(), (nodeId << 16) | PROBE_SLOT, WorkRequests.SIGNALED);
        unreaped[peer]++;
        writesWithImmediate++;
        qps[peer].post(work);
        boolean[] u = undeliveredResponses[peer];
        if (u != null) {
            for (int s = 0; s < u.length; s++) {
                if (u[s]) {
                    u[s] = false;
                    postResponse(peer, s, 16 + Math.max(0, Math.min(MAX_PAYLOAD,
                            seg.get(LE_INT, offset(OUT_RESPONSES, peer, s) + 12))));
                }
            }
        }
    }

    /**
     * The queue pair to lost {@code peer} reached incarnation {@code reached}: asks the resolver for its rings
     * until {@code deadline} and, when it has them, writes to them from then on, frees the slots the old
     * incarnation's calls held and drops the responses staged for its requests.
     *
     * @return whether the rings were learned
     */
    private boolean relearn(int peer, long reached, long deadline) {
        if (resolver == null) {
            return false;
        }
        RemoteRegion rings;
        try {
            rings = resolver.rings(peer, reached, left(deadline));
            if (rings != null) {
                requireFits(peer, rings);
            }
        } catch (RemusException e) {
            return false;
        }
        if (rings == null) {
            return false;
        }
        peerRings[peer] = rings;
        ringsIncarnation[peer] = reached;
        relearned++;
        PendingCall[] slots = inFlight[peer];
        for (int s = 0; s < slots.length; s++) {
            if (slots[s] != null) {
                if (!slots[s].isDone()) {
                    slots[s].fail(restarted(peer, reached));
                }
                slots[s] = null;
            }
        }
        heldByLost[peer] = 0;
        boolean[] u = undeliveredResponses[peer];
        if (u != null) {
            long want = tag(reached);
            long mask = ((1L << TAG_BITS) - 1) << COUNTER_BITS;
            for (int s = 0; s < u.length; s++) {
                if (u[s] && (seg.get(LE_LONG, offset(OUT_RESPONSES, peer, s)) & mask) != want) {
                    u[s] = false;
                }
            }
        }
        return true;
    }

    private PeerRestartedException restarted(int peer, long reached) {
        return new PeerRestartedException(peer, ringsIncarnation[peer], reached);
    }

    private void awaitSendRoom(int peer, long deadline) {
        while (unreaped[peer] >= sendQueueDepth) {
            reapSends();
            if (unreaped[peer] >= sendQueueDepth && ThreadTime.nanoTime() - deadline >= 0) {
                throw new RemoteTimeoutException("send queue to node " + peer + " stayed full until the deadline");
            }
            ThreadTime.onSpinWait();
        }
    }

    private void post(int peer, long stage, int length, long remote, int immediate) {
        work.clear();
        work.addWriteWithImmediate(peer, memory.address() + stage, length, memory.lkey(), remote,
                peerRings[peer].rkey(), immediate, WorkRequests.SIGNALED);
        unreaped[peer]++;
        writesWithImmediate++;
        qps[peer].post(work);
    }

    private int freeSlot(int peer) {
        PendingCall[] slots = inFlight[peer];
        for (int s = 0; s < slots.length; s++) {
            if (slots[s] == null) {
                return s;
            }
        }
        return -1;
    }

    private void writeSlot(long at, long callId, int word, byte[] payload) {
        writeHeader(at, callId, word, payload.length);
        MemorySegment.copy(payload, 0, seg, ValueLayout.JAVA_BYTE, at + 16, payload.length);
    }

    private void writeHeader(long at, long callId, int word, int length) {
        seg.set(LE_LONG, at, callId);
        seg.set(LE_INT, at + 8, word);
        seg.set(LE_INT, at + 12, length);
    }

    private long offset(int area, int peer, int slot) {
        return (((long) area * maxNodes + peer) * ringSlots + slot) * SLOT_BYTES;
    }

    private void requirePeerId(int peer) {
        if (peer < 0 || peer >= maxNodes) {
            throw new BadArgumentException("peer node id must be 0 to " + (maxNodes - 1) + ", got " + peer);
        }
    }

    private void confined() {
        Thread me = Thread.currentThread();
        if (owner == null) {
            owner = me;
        } else if (owner != me) {
            throw new ThreadConfinementException("the RPC endpoint of node " + nodeId + " belongs to Java thread "
                    + ThreadConfinementException.describe(owner) + ", which called or served first; it was called from "
                    + ThreadConfinementException.describe(me) + " (one endpoint per Java thread)");
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new BadArgumentException("the RPC endpoint of node " + nodeId + " is closed");
        }
    }

    private static byte[] detail(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return b.length <= MAX_PAYLOAD ? b : Arrays.copyOf(b, MAX_PAYLOAD);
    }


    static long deadline(Duration timeout) {
        return Timeouts.isForever(timeout) ? ThreadTime.nanoTime() + Long.MAX_VALUE / 4 : ThreadTime.nanoTime() + timeout.toNanos();
    }
}
