package io.remus.core.verbs;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RegistrationChecks;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.verbs.Access;
import io.remus.verbs.CmConnection;
import io.remus.verbs.CmPrivateData;
import io.remus.verbs.ConnectedQueuePair;
import io.remus.verbs.ConnectionOptions;
import io.remus.verbs.Endpoint;
import io.remus.verbs.PreparedQueuePair;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.QueuePairBuilder;
import io.remus.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node over verbs: its own protection domain on the fabric's device context, its memory
 * regions, the completion queues and queue pairs its compute threads create, and the queue pairs
 * it serves peers with. Closing it closes everything it created, newest first.
 */
final class VerbsNode implements FabricNode {
    private static final long PAGE = 4096;
    private static final int RESPONDER_CQ_CAPACITY = 16;
    /**
     * How this fabric's queue pairs connect: verbs' defaults but with 6 receiver-not-ready retries
     * instead of 7 (retry forever), so that a SEND or WRITE_WITH_IMMEDIATE to a node with no receive
     * posted fails with {@code IBV_WC_RNR_RETRY_EXC_ERR} after the retries (each waiting the
     * responder's minimum RNR timer, 0.64 ms at code 12) rather than stalling the queue pair for good.
     * One-sided requests consume no receives and never meet it.
     */
    static final ConnectionOptions CONNECTION_OPTIONS;

    static {
        ConnectionOptions d = ConnectionOptions.defaults();
        CONNECTION_OPTIONS = new ConnectionOptions(d.pathMtu(), d.timeout(), d.retryCount(), 6, d.minRnrTimer(),
                d.maxReadAtomic(), d.maxDestReadAtomic(), d.hopLimit());
    }

    private static final java.security.SecureRandom INCARNATIONS = new java.security.SecureRandom();

    private final VerbsFabric fabric;
    private final int nodeId;
    /** Drawn at random when the node opens, never 0: {@link #incarnation()}. */
    private final long incarnation = newIncarnation();
    private final ProtectionDomain pd;
    private final CopyOnWriteArrayList<RemoteRegion> published = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private volatile VerbsMemory[] regions = new VerbsMemory[0];
    private final RegionDirectory directory;
    private io.remus.verbs.CompletionQueue responderCq;
    private volatile VerbsReceiveQueue receiveQueue;
    private boolean closed;
    /**
     * The peers' planes this node holds {@link PeerAccess#READ_ONLY}, bit {@code peer * Plane.COUNT + plane}, under
     * this node's lock.
     */
    private final java.util.BitSet readOnlyPeers = new java.util.BitSet();
    /**
     * The access given to the rdma_cm connection request this node's listener admitted and has not yet
     * adopted ({@link #admit}, {@link #adopt}), or {@code null} when none is in flight; under this node's lock.
     */
    private PeerAccess admitted;

    VerbsNode(VerbsFabric fabric, int nodeId) {
        this.fabric = fabric;
        this.nodeId = nodeId;
        this.pd = fabric.context().allocateProtectionDomain();
        try {
            this.directory = fabric.usesRegionDirectory() ? new RegionDirectory(pd, nodeId) : null;
        } catch (RuntimeException e) {
            pd.close();
            throw e;
        }
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A random 64-bit number drawn when this node object opens (never 0): a process that restarts opens its
     * node anew and names another one. Peers learn it from the listener's private data (rdma_cm), the
     * connect reply (TCP bootstrap) or the node object itself (a node of this process).
     */
    @Override
    public long incarnation() {
        return incarnation;
    }

    /** {@return a random incarnation, never 0} */
    static long newIncarnation() {
        long n;
        do {
            n = INCARNATIONS.nextLong();
        } while (n == 0);
        return n;
    }

    List<RemoteRegion> published() {
        return List.copyOf(published);
    }

    @Override
    public RegisteredMemory allocate(long bytes) {
        RegistrationChecks.requirePositiveLength(bytes);
        Arena arena = Arena.ofShared();
        try {
            return add(RegistrationChecks.allocate(arena, bytes, PAGE), arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public RegisteredMemory register(MemorySegment segment) {
        if (!segment.isNative() || segment.byteSize() == 0 || segment.isReadOnly()) {
            throw new BadArgumentException("only non-empty, writable native memory can be registered, got " + segment);
        }
        io.remus.core.memory.RemotePtr.requireRange(segment.address(), segment.byteSize());
        return add(segment, null);
    }

    private synchronized VerbsMemory add(MemorySegment segment, Arena arena) {
        ensureOpen();
        VerbsMemory m;
        try {
            m = new VerbsMemory(this, pd.registerMemory(segment, Access.all()), arena);
        } catch (VerbsException e) {
            throw new RemusException("registering " + segment.byteSize() + " bytes on node " + nodeId + " failed", e);
        }
        regions = RegistrationChecks.adding(regions, m);
        owned.add(m);
        return m;
    }

    synchronized void deregister(VerbsMemory m) {
        regions = RegistrationChecks.removing(regions, m);
        published.removeIf(r -> r.rkey() == m.rkey() && r.address() == m.address());
        if (directory != null && !closed) {
            directory.update(nodeId, published);
        }
        owned.remove(m);
    }

    /**
     * {@return the registration with local key {@code lkey} covering the range, or {@code null}}
     */
    VerbsMemory findLocal(int lkey, long address, long length) {
        return RegistrationChecks.coveringLocal(regions, lkey, address, length);
    }

    @Override
    public synchronized void publishAll(List<? extends RegisteredMemory> memories) {
        List<RemoteRegion> more = RegistrationChecks.publications(nodeId, memories,
                memory -> memory instanceof VerbsMemory m && m.node() == this, false);
        if (directory != null && !more.isEmpty()) {
            List<RemoteRegion> next = new ArrayList<>(published);
            next.addAll(more);
            directory.update(nodeId, next);
        }
        published.addAll(more);
    }

    /** {@return this node's region table as rdma_cm peers are offered it} */
    io.remus.verbs.RemoteRegion directoryOffer() {
        if (directory == null) {
            throw new BadArgumentException("node " + nodeId + " has no region table (not an rdma_cm fabric)");
        }
        return directory.offer();
    }

    /** {@return the settings of a queue pair that serves a requester (its completion queue created on first use)} */
    synchronized QueuePairBuilder responderBuilder() {
        ensureOpen();
        if (responderCq == null) {
            responderCq = fabric.context().createCompletionQueue(RESPONDER_CQ_CAPACITY);
            owned.add(responderCq);
        }
        return withReceives(pd.queuePair().completionQueue(responderCq).maxSendWorkRequests(1).maxReceiveWorkRequests(1)
                .maxInlineData(0).port(fabric.options().port()));
    }

    /** Attaches a queue pair under construction to this node's receive queue, when it has one. */
    private QueuePairBuilder withReceives(QueuePairBuilder builder) {
        VerbsReceiveQueue rq = receiveQueue;
        return rq == null ? builder
                : builder.sharedReceiveQueue(rq.srq()).receiveCompletionQueue(rq.completionQueue().verbs());
    }

    @Override
    public synchronized ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth) {
        ensureOpen();
        FabricNode.requireReceiveCompletionQueue(nodeId, cq instanceof VerbsCompletionQueue own && own.node() == this);
        int max = fabric.context().queryDevice().maxSharedReceiveQueueWorkRequests();
        FabricNode.checkNewReceiveQueue(nodeId, depth, max, receiveQueue != null);
        VerbsCompletionQueue verbsCq = (VerbsCompletionQueue) cq;
        io.remus.verbs.SharedReceiveQueue srq;
        try {
            srq = pd.createSharedReceiveQueue(depth, 1);
        } catch (VerbsException e) {
            throw new RemusException("creating a receive queue of depth " + depth + " on node " + nodeId + " failed", e);
        }
        VerbsReceiveQueue rq;
        try {
            rq = new VerbsReceiveQueue(this, srq, verbsCq, depth);
        } catch (RuntimeException e) {
            srq.close();
            throw e;
        }
        verbsCq.attach(rq);
        owned.add(rq);
        receiveQueue = rq;
        return rq;
    }

    /**
     * Admits an rdma_cm connection request to this node ({@link io.remus.verbs.CmListener.Admission}, on the
     * listener's thread, before {@code rdma_accept}): checks the node id the requester named in its private
     * data and returns the access its serving queue pair starts with, the access this node gives that peer
     * on the plane the request names now ({@link #setPeerAccess}). Until the connection is
     * {@linkplain #adopt adopted} (or its accept fails, {@link #endAdmission()}), {@link #setPeerAccess} waits for it, so a switch that returned also holds for
     * a connection being established as it was made. A request that names no node is served as an unknown
     * requester: reads only while this node holds any peer {@code READ_ONLY}.
     *
     * @param request the request's private data
     * @return the queue pair access flags of the connection
     * @throws BootstrapProtocolException if the requester names this node itself or a node that has no
     *                                    address in this fabric's node list (the listener rejects the request)
     * @throws BadArgumentException       if this node is closed
     */
    synchronized java.util.Set<Access> admit(CmPrivateData request) {
        ensureOpen();
        PeerAccess access = accessFor(requesterOf(request.senderId()), request.plane());
        admitted = access;
        return ResponderQueuePair.flags(access);
    }

    /** Ends the admission in flight, if any ({@link #admit}): its connection was adopted or failed. */
    synchronized void endAdmission() {
        if (admitted != null) {
            admitted = null;
            notifyAll();
        }
    }

    /**
     * Keeps an accepted rdma_cm connection as a serving queue pair of the requester its private data names
     * ({@link CmConnection#peerId()}, checked again here), on the plane it names ({@link CmConnection#peerPlane()}),
     * until this node closes; closes it if the node did.
     * Its access is the access this node gives that requester on that plane now, switched ({@code ibv_modify_qp}) if
     * {@link #setPeerAccess} changed it since {@link #admit}; a connection whose requester named no node
     * serves reads only while this node holds any peer {@code READ_ONLY}. Ends the admission in flight.
     *
     * @param connection an accepted connection
     * @throws BootstrapProtocolException if the connection names this node or a node with no address (it is closed)
     * @throws RemusException             if its access could not be switched (it is closed)
     */
    void adopt(CmConnection connection) {
        synchronized (this) {
            try {
                if (!closed) {
                    int requester = requesterOf(connection.peerId());
                    int plane = connection.peerPlane();
                    ResponderQueuePair r = new ResponderQueuePair(this, connection, requester, plane);
                    owned.add(r);
                    PeerAccess access = accessFor(requester, plane);
                    if (access != admitted) {
                        try {
                            r.setAccess(access);
                        } catch (RuntimeException e) {
                            r.close();
                            throw e;
                        }
                    }
                    return;
                }
            } catch (RuntimeException e) {
                connection.close();
                throw e;
            } finally {
                endAdmission();
            }
        }
        connection.close();
    }

    /**
     * @param senderId the node id an rdma_cm requester named, or {@link CmPrivateData#NO_SENDER}
     * @return the requester of its serving queue pair
     * @throws BootstrapProtocolException if it names this node or one with no address in the node list
     */
    private int requesterOf(int senderId) {
        return requesterOf(nodeId, senderId, fabric.options().bootstrapAddresses().size());
    }

    /**
     * Checks the node id an rdma_cm connect request names before the request is accepted.
     *
     * @param self      the node the request is for
     * @param senderId  the node id the requester named, or {@link CmPrivateData#NO_SENDER}
     * @param nodeCount how many nodes the fabric's node list holds (ids {@code 0} to {@code nodeCount - 1})
     * @return {@code senderId}, or {@link ResponderQueuePair#UNKNOWN_REQUESTER} where it names none
     * @throws BootstrapProtocolException naming {@code senderId} if it is {@code self} or outside the node list
     */
    static int requesterOf(int self, int senderId, int nodeCount) {
        if (senderId == CmPrivateData.NO_SENDER) {
            return ResponderQueuePair.UNKNOWN_REQUESTER;
        }
        if (senderId == self || senderId < 0 || senderId >= nodeCount) {
            throw new BootstrapProtocolException("node " + self + " refused an rdma_cm connection request from node "
                    + senderId + ": " + (senderId == self ? "that is this node itself"
                    : "it is outside the node list of " + nodeCount + " nodes"));
        }
        return senderId;
    }

    /** {@return the access this node gives {@code requester}'s queue pairs of {@code plane} now; under this node's lock} */
    private PeerAccess accessFor(int requester, int plane) {
        if (requester == ResponderQueuePair.UNKNOWN_REQUESTER) {
            return readOnlyPeers.isEmpty() ? PeerAccess.READ_WRITE : PeerAccess.READ_ONLY;
        }
        return readOnlyPeers.get(requester * Plane.COUNT + plane) ? PeerAccess.READ_ONLY : PeerAccess.READ_WRITE;
    }

    /**
     * Switches {@code peerNodeId}'s access on every serving queue pair of that peer ({@code ibv_query_qp}
     * and {@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS} each; one in the error state is left as it
     * is), and on those it serves later (set as each is made). Every serving queue pair knows its requester:
     * one connected in this process or through the TCP bootstrap by construction, one accepted over rdma_cm
     * by the node id in the connect request's private data (checked before it is accepted), so exactly that
     * peer's queue pairs switch. A connection being accepted over rdma_cm as this is called is waited for
     * (at most the fabric's connect timeout) and switched too. The serving queue pairs that name no
     * requester, those through which another process' fabric READs this node's region table (one per
     * process, not a node's), serve reads only while this node holds any peer {@code READ_ONLY} on any plane.
     * <p>Known gap: {@code rdma_accept} moves a new connection's queue pair to RTS with rdma_cm's own access
     * flags (WRITE always, READ and atomics with responder resources), and the access this node gives the
     * peer is set just after it returns. An operation the peer posts in between, at once on its new connection,
     * runs with rdma_cm's access; a call of this method after the peer's connection was established returns
     * only once that connection serves the access. Closing the gap takes transitioning the queue pair by hand
     * before {@code rdma_accept}, which is not done.
     * <p>Blocking (the node's lock, one {@code ibv_modify_qp} per queue pair of the peer); no RDMA operation.
     *
     * @throws RemoteTimeoutException if a connection being accepted was neither adopted nor dropped within the
     *                                fabric's connect timeout (the switch is made on every other queue pair)
     */
    @Override
    public void setPeerAccess(int peerNodeId, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, access);
        switchAccess(peerNodeId, 0, Plane.COUNT, access);
    }

    /**
     * As {@link #setPeerAccess(int, PeerAccess)}, on the serving queue pairs of that peer whose requester connected
     * on plane {@code plane} (the plane its rdma_cm connect request, its TCP bootstrap request or its in-process
     * connection named), and on those of that plane it serves later; the peer's other planes keep their access.
     *
     * @throws RemoteTimeoutException as {@link #setPeerAccess(int, PeerAccess)}
     */
    @Override
    public void setPeerAccess(int peerNodeId, int plane, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, plane, access);
        switchAccess(peerNodeId, plane, 1, access);
    }

    /** Switches the peer's planes {@code from..from + count - 1}: the access kept, its serving queue pairs, admissions. */
    private void switchAccess(int peerNodeId, int from, int count, PeerAccess access) {
        int bit = peerNodeId * Plane.COUNT + from;
        synchronized (this) {
            ensureOpen();
            if (access == PeerAccess.READ_ONLY) {
                readOnlyPeers.set(bit, bit + count);
            } else {
                readOnlyPeers.clear(bit, bit + count);
            }
            PeerAccess unknown = accessFor(ResponderQueuePair.UNKNOWN_REQUESTER, Plane.DEFAULT);
            for (AutoCloseable resource : owned) {
                if (resource instanceof ResponderQueuePair r) {
                    if (r.requester() == peerNodeId && r.plane() >= from && r.plane() < from + count) {
                        r.setAccess(access);
                    } else if (r.requester() == ResponderQueuePair.UNKNOWN_REQUESTER) {
                        r.setAccess(unknown);
                    }
                }
            }
            awaitNoAdmission();
        }
    }

    /** Waits, releasing this node's lock, until no rdma_cm admission is in flight; under this node's lock. */
    private void awaitNoAdmission() {
        if (admitted == null) {
            return;
        }
        Duration bound = fabric.options().connectTimeout();
        long deadline = System.nanoTime() + bound.toNanos();
        boolean interrupted = false;
        try {
            while (admitted != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new RemoteTimeoutException("node " + nodeId + " switched its peers' access, but an rdma_cm"
                            + " connection it was accepting was neither kept nor dropped within " + bound);
                }
                try {
                    wait(Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Closes the serving rdma_cm connections whose requester disconnected or died, so that their
     * queue pairs and ids do not live until this node closes; a restarted requester connects anew.
     *
     * @return how many were closed
     */
    int releaseLeftConnections() {
        List<ResponderQueuePair> left = new ArrayList<>();
        synchronized (this) {
            for (AutoCloseable r : owned) {
                if (r instanceof ResponderQueuePair q && q.requesterLeft()) {
                    left.add(q);
                }
            }
        }
        for (ResponderQueuePair q : left) {
            q.close();
        }
        return left.size();
    }

    /** {@return how many serving queue pairs this node holds (hand-connected and rdma_cm)} */
    synchronized int servingQueuePairs() {
        return (int) owned.stream().filter(r -> r instanceof ResponderQueuePair).count();
    }

    @Override
    public synchronized CompletionQueue createCompletionQueue(int capacity) {
        ensureOpen();
        int max = fabric.context().queryDevice().maxCompletionQueueEntries();
        if (capacity <= 0 || capacity > max) {
            throw new BadArgumentException("completion queue capacity must be 1.." + max + ", got " + capacity);
        }
        VerbsCompletionQueue cq = new VerbsCompletionQueue(this, fabric.context().createCompletionQueue(capacity), capacity);
        owned.add(cq);
        return cq;
    }

    @Override
    public QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth, Duration waitTimeout) {
        Plane.require(plane);
        if (!(cq instanceof VerbsCompletionQueue verbsCq) || verbsCq.node() != this) {
            throw new BadArgumentException("a verbs queue pair needs a completion queue of its own node");
        }
        int max = fabric.context().queryDevice().maxQueuePairWorkRequests();
        if (sendQueueDepth <= 0 || sendQueueDepth > max) {
            throw new BadArgumentException("send queue depth must be 1.." + max + ", got " + sendQueueDepth);
        }
        fabric.requireKnown(peerNodeId);
        FabricNode.checkWaitTimeout(waitTimeout);
        synchronized (this) {
            ensureOpen();
        }
        VerbsQueuePair qp = new VerbsQueuePair(this, peerNodeId, plane, verbsCq, sendQueueDepth, waitTimeout);
        synchronized (this) {
            owned.add(qp);
        }
        return qp;
    }

    /**
     * Creates a queue pair in this node's domain and connects it to {@code peer} on plane {@code plane}: to
     * itself for the loopback QP, to a new serving QP of the peer (of that plane) when it lives in this process,
     * else through the
     * fabric's {@link PeerBootstrap} (an rdma_cm connection by default), bounded by {@code attemptTimeout}
     * when this process reached that peer before ({@link PeerReachability}).
     */
    PeerConnection link(int peer, int plane, VerbsCompletionQueue cq, int depth, Duration attemptTimeout) {
        QueuePairBuilder builder = withReceives(pd.queuePair().completionQueue(cq.verbs()).maxSendWorkRequests(depth)
                .maxReceiveWorkRequests(1).maxInlineData(0).port(fabric.options().port()));
        VerbsNode local = fabric.localNode(peer);
        if (peer != nodeId && local == null) {
            PeerBootstrap bootstrap = fabric.bootstrap();
            if (bootstrap == null) {
                throw new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED, peer, "node " + peer
                        + " is not open in this process (it closed), and this fabric reaches no other process");
            }
            try {
                return bootstrap.connect(this, peer, plane, builder, attemptTimeout);
            } catch (VerbsException e) {
                throw new RemusException("connecting node " + nodeId + " to node " + peer + " failed", e);
            }
        }
        PreparedQueuePair mine;
        try {
            mine = builder.build();
        } catch (VerbsException e) {
            throw new RemusException("creating a queue pair from node " + nodeId + " to node " + peer + " failed", e);
        }
        ResponderQueuePair peerSide = null;
        try {
            if (peer == nodeId) {
                return new PeerConnection(mine.connect(mine.localEndpoint(), CONNECTION_OPTIONS), null, null, incarnation);
            }
            Responder r = local.respond(nodeId, plane, mine.localEndpoint());
            peerSide = r.queuePair();
            return new PeerConnection(mine.connect(r.endpoint(), CONNECTION_OPTIONS), peerSide, null, local.incarnation());
        } catch (VerbsException e) {
            closeQuietly(mine, peerSide);
            throw new RemusException("connecting node " + nodeId + " to node " + peer + " failed", e);
        } catch (RuntimeException e) {
            closeQuietly(mine, peerSide);
            throw e;
        }
    }

    private static void closeQuietly(PreparedQueuePair mine, ResponderQueuePair peerSide) {
        mine.close();
        if (peerSide != null) {
            peerSide.close();
        }
    }

    /** A serving queue pair and the endpoint the requester connects to. */
    record Responder(ResponderQueuePair queuePair, Endpoint endpoint) {
    }

    /**
     * Creates a queue pair that serves {@code requester}'s requests against this node's memory, with the
     * access this node gives that node on plane {@code plane} ({@link #setPeerAccess}).
     *
     * @param requesterNode the requester's node id
     * @param plane         the plane of the requester's queue pair
     * @param requester     the requester's endpoint
     * @return the serving queue pair, connected
     */
    synchronized Responder respond(int requesterNode, int plane, Endpoint requester) {
        PreparedQueuePair prepared = responderBuilder().build();
        Endpoint endpoint = prepared.localEndpoint();
        ConnectedQueuePair connected;
        try {
            connected = prepared.connect(requester, CONNECTION_OPTIONS);
        } catch (RuntimeException e) {
            prepared.close();
            throw e;
        }
        ResponderQueuePair r = new ResponderQueuePair(this, connected, requesterNode, plane);
        owned.add(r);
        if (accessFor(requesterNode, plane) == PeerAccess.READ_ONLY) {
            r.setAccess(PeerAccess.READ_ONLY);
        }
        return new Responder(r, endpoint);
    }

    synchronized void forget(AutoCloseable resource) {
        owned.remove(resource);
    }

    private void ensureOpen() {
        if (closed) {
            throw new BadArgumentException("node " + nodeId + " is closed");
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        fabric.stopServing(this);
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(owned);
        }
        RuntimeException failure = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new RemusException("closing a resource of node " + nodeId + " failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        published.clear();
        fabric.forget(this);
        try {
            if (directory != null) {
                directory.close();
            }
            pd.close();
        } catch (VerbsException e) {
            if (failure == null) {
                failure = new RemusException("closing the protection domain of node " + nodeId + " failed", e);
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
