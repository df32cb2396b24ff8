package io.remus.core.verbs;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.core.verbs.bootstrap.RegionTable;
import io.remus.core.verbs.bootstrap.RegionTableCodec;
import io.remus.verbs.Access;
import io.remus.verbs.CmConnection;
import io.remus.verbs.CmConnector;
import io.remus.verbs.CmPrivateData;
import io.remus.verbs.CompletionQueue;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.QueuePairBuilder;
import io.remus.verbs.SendBatch;
import io.remus.verbs.VerbsException;
import io.remus.verbs.WorkCompletions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * {@link BootstrapKind#RDMA_CM}: each served node listens with the RDMA connection manager on its
 * address ({@link CmNodeListener}); every queue pair a requester keeps to it (each lane) is one
 * rdma_cm connection, whose connect request's private data ({@link CmPrivateData}) names the
 * requesting node, so that the served node knows whose queue pair it serves
 * ({@link VerbsNode#setPeerAccess}). The listener's private data names its node (checked against
 * the node dialled) and its {@link RegionDirectory}; to learn a node's published regions, this
 * process keeps one rdma_cm connection to it from a small domain of its own and RDMA READs the table
 * ({@link RegionTableCodec}), re-reading a table that changed under the READ (its checksum tells).
 * That connection names no requesting node (the domain is the process', not a node's): the served
 * node serves it reads only while it holds any peer read-only, and it only READs. It is kept per node
 * with the incarnation the node's listener named, and dropped (then dialled again) once a connection of
 * this process reached another incarnation of that node ({@link VerbsFabric#knownIncarnation}), so a
 * table is never read from a former incarnation's memory after a queue pair reached the new one.
 */
final class CmBootstrap implements PeerBootstrap {
    private static final int TABLE_READS = 5;
    private static final long TABLE_WR_ID = 1;

    private final VerbsFabric fabric;
    private final Map<Integer, CmNodeListener> listeners = new ConcurrentHashMap<>();
    private final Map<Integer, TableReader> readers = new HashMap<>();
    /** Made on the first table read, whole or not at all. */
    private TableDomain domain;
    private boolean closed;

    CmBootstrap(VerbsFabric fabric) {
        this.fabric = fabric;
    }

    /** A connection to a peer over which its region table is read. */
    private record TableReader(CmConnection connection, SendBatch batch) {
    }

    /**
     * The small domain region tables are read into: a protection domain, a completion queue, one
     * registered buffer and the completions to poll into. {@link #open} makes all of it or, when a
     * step fails, closes what the earlier steps made and throws, so no half-made domain is ever seen.
     */
    private record TableDomain(ProtectionDomain pd, CompletionQueue cq, Arena arena, MemoryRegion buffer,
                               WorkCompletions completions) implements AutoCloseable {
        static TableDomain open(io.remus.verbs.Context context) {
            try (AllOrNothing made = new AllOrNothing()) {
                ProtectionDomain pd = made.add(context.allocateProtectionDomain());
                CompletionQueue cq = made.add(context.createCompletionQueue(4));
                Arena arena = made.add(Arena.ofShared());
                MemorySegment memory = arena.allocate(RegionDirectory.BYTES, RegionDirectory.BYTES);
                MemoryRegion buffer = made.add(pd.registerMemory(memory, EnumSet.of(Access.LOCAL_WRITE)));
                WorkCompletions completions = made.add(new WorkCompletions(4));
                made.keep();
                return new TableDomain(pd, cq, arena, buffer, completions);
            }
        }

        @Override
        public void close() {
            completions.close();
            buffer.close();
            arena.close();
            cq.close();
            pd.close();
        }
    }

    @Override
    public void serve(VerbsNode node) {
        InetSocketAddress address = fabric.options().bootstrapAddresses().get(node.nodeId());
        listeners.put(node.nodeId(), new CmNodeListener(fabric.context(), node, ipv4(node.nodeId(), address),
                address.getPort(), fabric.options().connectTimeout()));
    }

    @Override
    public void stopServing(VerbsNode node) {
        CmNodeListener l = listeners.remove(node.nodeId());
        if (l != null) {
            l.close();
        }
    }

    @Override
    public PeerConnection connect(VerbsNode from, int peer, int plane, QueuePairBuilder builder, Duration attemptTimeout) {
        CmConnection c = dial(peer, builder, new CmPrivateData(from.directoryOffer(), from.nodeId(), plane,
                from.incarnation()), attemptTimeout);
        fabric.reachedIncarnation(peer, c.peerIncarnation());
        return new PeerConnection(c.queuePair(), null, c, c.peerIncarnation());
    }

    @Override
    public synchronized List<RemoteRegion> publishedRegions(int nodeId, Duration attemptTimeout) {
        if (closed) {
            throw new BadArgumentException("the fabric is closed");
        }
        TableReader reader = reader(nodeId, attemptTimeout);
        io.remus.verbs.RemoteRegion table = reader.connection().peerRegion();
        int length = (int) Math.min(table.length(), RegionDirectory.BYTES);
        BootstrapProtocolException last = null;
        for (int attempt = 0; attempt < TABLE_READS; attempt++) {
            try {
                reader.batch().read(TABLE_WR_ID, domain.buffer(), 0, length, table.address(), table.remoteKey(), true).post();
                awaitRead(attemptTimeout);
            } catch (VerbsException | RemusException e) {
                forget(nodeId);
                throw e instanceof RemusException r ? r : new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED,
                        nodeId, "reading node " + nodeId + "'s region table failed: " + e.getMessage());
            }
            try {
                RegionTable t = RegionTableCodec.decode(domain.buffer().segment().asSlice(0, length).toArray(JAVA_BYTE));
                if (t.nodeId() != nodeId) {
                    throw new BootstrapProtocolException("the region table at node " + nodeId + "'s address is node "
                            + t.nodeId() + "'s: check the node list");
                }
                return t.regions();
            } catch (BootstrapProtocolException e) {
                last = e;
            }
        }
        throw last;
    }

    private TableReader reader(int nodeId, Duration attemptTimeout) {
        TableReader r = readers.get(nodeId);
        if (r != null && r.connection().peerIncarnation() == fabric.knownIncarnation(nodeId)) {
            return r;
        }
        if (r != null) {
            forget(nodeId);
        }
        if (domain == null) {
            domain = TableDomain.open(fabric.context());
        }
        QueuePairBuilder builder = domain.pd().queuePair().completionQueue(domain.cq()).maxSendWorkRequests(1)
                .maxReceiveWorkRequests(1).maxInlineData(0);
        CmConnection c = dial(nodeId, builder, CmPrivateData.anonymous(domain.buffer().toRemoteRegion()), attemptTimeout);
        fabric.reachedIncarnation(nodeId, c.peerIncarnation());
        try {
            r = new TableReader(c, c.queuePair().sendBatch(1));
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        readers.put(nodeId, r);
        return r;
    }

    private void awaitRead(Duration timeout) {
        domain.cq().pollUntilAny(domain.completions(), timeout.toNanos());
        domain.completions().throwIfFailed(0);
    }

    private void forget(int nodeId) {
        TableReader r = readers.remove(nodeId);
        if (r != null) {
            try {
                r.connection().close();
            } catch (RuntimeException ignored) {
                // the peer is gone; its connection's resources are released either way
            }
        }
    }

    /**
     * Connects to {@code peer}'s listener and checks that the listener names {@code peer}: for a peer this
     * process never reached, retrying for the connect timeout (it may still be starting); for one reached
     * before, one attempt bounded by {@code attemptTimeout}, or at once {@link PeerUnreachableException}
     * while its back-off lasts ({@link PeerReachability}).
     *
     * @throws BootstrapProtocolException if the node listening at {@code peer}'s address names another node
     *                                    (the connection is closed)
     * @throws PeerUnreachableException   when no connection was made
     */
    private CmConnection dial(int peer, QueuePairBuilder builder, CmPrivateData offer, Duration attemptTimeout) {
        InetSocketAddress address = fabric.options().bootstrapAddresses().get(peer);
        PeerReachability.Budget budget = fabric.reachability().budget(peer, fabric.options().connectTimeout(),
                attemptTimeout);
        CmConnection c;
        try {
            c = budget.retry()
                    ? CmConnector.connect(builder, ipv4(peer, address), address.getPort(), offer, budget.timeout(),
                    VerbsNode.CONNECTION_OPTIONS)
                    : CmConnector.connectOnce(builder, ipv4(peer, address), address.getPort(), offer, budget.timeout(),
                    VerbsNode.CONNECTION_OPTIONS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemusException("interrupted while connecting to node " + peer + " at " + address, e);
        } catch (VerbsException e) {
            fabric.reachability().failed(peer, budget, e);
            throw new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED, peer, "no rdma_cm connection to node "
                    + peer + " at " + address + (budget.retry() ? " within " : " in one attempt bounded by ")
                    + budget.timeout() + ": " + e.getMessage());
        }
        if (c.peerId() != peer) {
            c.close();
            throw new BootstrapProtocolException("the rdma_cm listener at node " + peer + "'s address " + address
                    + " is node " + c.peerId() + "'s: check the node list");
        }
        fabric.reachability().reached(peer);
        return c;
    }

    private static String ipv4(int nodeId, InetSocketAddress address) {
        if (address.isUnresolved() || !(address.getAddress() instanceof Inet4Address v4)) {
            throw new BadArgumentException("node " + nodeId + "'s address " + address
                    + " does not resolve to an IPv4 address (rdma_cm here needs one on the RDMA device)");
        }
        return v4.getHostAddress();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (CmNodeListener l : List.copyOf(listeners.values())) {
            l.close();
        }
        listeners.clear();
        for (Integer peer : List.copyOf(readers.keySet())) {
            forget(peer);
        }
        if (domain != null) {
            domain.close();
            domain = null;
        }
    }
}
