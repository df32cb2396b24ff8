package io.remus.core.verbs;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;
import io.remus.verbs.Context;
import io.remus.verbs.VerbsException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The fabric over real RDMA through the verbs API ({@code io.remus.verbs}): one device context
 * per process, shared by the nodes this process opens; each node has its own protection domain
 * and memory regions.
 *
 * <p>Queue pairs are reliable connected ({@code IBV_QPT_RC}). A node's QP to itself is a loopback
 * QP connected to itself; a QP to a node of this process is connected by hand to a serving QP that
 * the peer creates in its own domain; a QP to a node of another process (one with an address in
 * {@link VerbsFabricOptions}) goes through the options' {@link BootstrapKind}: by default each lane
 * is an rdma_cm connection to the listener that every opened node with an address runs, and a
 * peer's published regions are read from its region table over rdma_cm; {@link BootstrapKind#TCP}
 * is the fallback. For rdma_cm the device context is librdmacm's
 * ({@link Context#openForRdmaCm(String)}), as {@code rdma_create_qp} requires.
 *
 * <p>A compute thread's lanes to a node of another process are connected when the thread first
 * targets that node. Once connected, the peer's NIC answers one-sided operations without its CPU, so a
 * peer process that is stopped (SIGSTOP) or descheduled keeps serving them; but a first operation on a
 * node whose process is stopped waits, up to {@link VerbsFabricOptions#connectTimeout()}, for a
 * connection that process cannot accept until it runs again.
 *
 * <p>The connect timeout is for a peer's start: it covers connections to a node of another process until
 * this process has reached that node once. A connection needed later (a queue pair the device put in the
 * error state is replaced, a region table is read again) is to a peer that was running, so it makes one
 * attempt, bounded by its caller's timeout (a compute thread's operation timeout); after a failed attempt,
 * connections to that node fail at once with {@link io.remus.core.error.PeerUnreachableException} until a
 * back-off passes (the attempt's bound, doubling with each further failure up to 16 times it). So a thread that
 * keeps posting to a node whose process died or whose host stopped learns it within one attempt, and then
 * at once, instead of waiting out the connect timeout on every post.
 *
 * <p>Each node has an incarnation ({@link FabricNode#incarnation()}): a random nonzero number drawn when a
 * node object opens, so a process that restarts (with new memory and new region keys) opens another one.
 * Every connection tells the requester the incarnation it reached: the rdma_cm listener names it in its
 * private data ({@link io.remus.verbs.CmPrivateData#incarnation()}), the TCP bootstrap in its connect
 * reply, and a node of this process by itself; a queue pair reports the one its latest connection reached
 * ({@link io.remus.core.fabric.QueuePair#peerIncarnation()}), so a compute thread whose queue pair was
 * replaced after an error finds out that it now reaches a new process
 * ({@link io.remus.core.error.PeerRestartedException}). The connection this process keeps to read a node's
 * region table is dropped and made again once a connection reached another incarnation of the node, so a
 * region table is never read from a former incarnation after a queue pair reached the new one.
 *
 * <p>Posting and polling allocate nothing; connecting, registering and bootstrap are control path.
 */
public final class VerbsFabric implements Fabric {
    private static final long POLL_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final VerbsFabricOptions options;
    private final Context context;
    private final ConcurrentHashMap<Integer, VerbsNode> nodes = new ConcurrentHashMap<>();
    private final PeerBootstrap bootstrap;
    private final PeerReachability reachability = new PeerReachability();
    /** Per node of another process, the incarnation the latest connection to it reached. */
    private final ConcurrentHashMap<Integer, Long> incarnations = new ConcurrentHashMap<>();

    private VerbsFabric(VerbsFabricOptions options) {
        this.options = options;
        boolean remote = !options.bootstrapAddresses().isEmpty();
        boolean cm = remote && options.bootstrap() == BootstrapKind.RDMA_CM;
        try {
            this.context = cm ? Context.openForRdmaCm(options.device()) : Context.open(options.device());
        } catch (VerbsException e) {
            throw new RemusException("cannot open RDMA device " + options.device() + ": " + e.getMessage(), e);
        }
        this.bootstrap = !remote ? null : cm ? new CmBootstrap(this) : new TcpBootstrap(this);
    }

    /**
     * Opens a fabric on a device for nodes that all live in this process.
     *
     * @param device the RDMA device, e.g. {@code rxe0}
     * @return a fabric whose nodes all live in this process
     * @throws RemusException when the device cannot be opened
     */
    public static VerbsFabric open(String device) {
        return new VerbsFabric(VerbsFabricOptions.singleProcess(device));
    }

    /**
     * Opens a fabric for one process of a multi-process cluster.
     *
     * @param options device, port, the nodes' addresses and the bootstrap kind of a multi-process cluster
     * @return the fabric
     * @throws RemusException when the device cannot be opened
     */
    public static VerbsFabric open(VerbsFabricOptions options) {
        return new VerbsFabric(options);
    }

    @Override
    public String name() {
        return "verbs";
    }

    /** {@return the options} */
    public VerbsFabricOptions options() {
        return options;
    }

    Context context() {
        return context;
    }

    PeerBootstrap bootstrap() {
        return bootstrap;
    }

    boolean usesRegionDirectory() {
        return bootstrap instanceof CmBootstrap;
    }

    /**
     * Opens node {@code nodeId} in this process; when it has an address, starts answering peers
     * for it there (an rdma_cm listener on that IPv4 address and port, or, with
     * {@link BootstrapKind#TCP}, a TCP service on that port).
     */
    @Override
    public synchronized FabricNode open(int nodeId) {
        RemotePtr.requireNodeId(nodeId);
        if (nodes.containsKey(nodeId)) {
            throw new BadArgumentException("node " + nodeId + " is already open on this fabric");
        }
        VerbsNode node;
        try {
            node = new VerbsNode(this, nodeId);
        } catch (VerbsException e) {
            throw new RemusException("opening node " + nodeId + " on " + options.device() + " failed", e);
        }
        nodes.put(nodeId, node);
        if (options.hasAddress(nodeId)) {
            try {
                bootstrap.serve(node);
            } catch (VerbsException e) {
                node.close();
                throw new RemusException("node " + nodeId + " cannot listen at "
                        + options.bootstrapAddresses().get(nodeId) + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }
        return node;
    }

    /**
     * {@inheritDoc}
     *
     * <p>For a node of another process: reading its region table connects to it first, waiting up to the
     * connect timeout for a node this process never reached and, for one reached before, bounded as
     * {@link #publishedRegions(int, Duration)} with the connect timeout.
     *
     * @throws io.remus.core.error.PeerUnreachableException when a node of another process cannot be reached
     */
    @Override
    public List<RemoteRegion> publishedRegions(int nodeId) {
        return publishedRegions(nodeId, options.connectTimeout());
    }

    /**
     * {@inheritDoc}
     *
     * <p>A node of another process that this process reached before and cannot reach now (its process died,
     * its host stopped) gets one attempt bounded by {@code timeout}; after a failed attempt, look-ups and
     * connections to it fail at once until a back-off passes (see the class overview).
     *
     * @throws io.remus.core.error.PeerUnreachableException when a node of another process cannot be reached
     */
    @Override
    public List<RemoteRegion> publishedRegions(int nodeId, Duration timeout) {
        VerbsNode node = nodes.get(nodeId);
        if (node != null) {
            return node.published();
        }
        if (!options.hasAddress(nodeId)) {
            return List.of();
        }
        return bootstrap.publishedRegions(nodeId, Timeouts.require(timeout, "timeout"));
    }

    /** Records that a connection to node {@code nodeId} reached its incarnation {@code incarnation} (0: unknown). */
    void reachedIncarnation(int nodeId, long incarnation) {
        if (incarnation != 0) {
            incarnations.put(nodeId, incarnation);
        }
    }

    /** {@return the incarnation of node {@code nodeId} the latest connection of this process reached, or 0} */
    long knownIncarnation(int nodeId) {
        return incarnations.getOrDefault(nodeId, 0L);
    }

    /** {@return what this process knows about reaching the nodes of other processes} */
    PeerReachability reachability() {
        return reachability;
    }

    /**
     * Waits until node {@code nodeId} (in this process or another) publishes at least one region.
     *
     * @param nodeId  a node
     * @param timeout how long to wait: positive, at most {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER}
     * @return its regions
     * @throws RemoteTimeoutException when it published nothing in time
     * @throws BadArgumentException   when {@code timeout} is out of that range
     */
    public List<RemoteRegion> awaitPublishedRegions(int nodeId, Duration timeout) {
        long deadline = System.nanoTime() + Timeouts.require(timeout, "timeout").toNanos();
        while (true) {
            List<RemoteRegion> regions = publishedRegions(nodeId);
            if (!regions.isEmpty()) {
                return regions;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("node " + nodeId + " published no memory within " + timeout);
            }
            LockSupport.parkNanos(POLL_PAUSE_NANOS);
        }
    }

    void requireKnown(int nodeId) {
        if (!nodes.containsKey(nodeId) && !options.hasAddress(nodeId)) {
            throw new BadArgumentException("node " + nodeId + " is neither open in this process nor has an address");
        }
    }

    VerbsNode localNode(int nodeId) {
        return nodes.get(nodeId);
    }

    VerbsNode servedNode(int nodeId) {
        VerbsNode node = nodes.get(nodeId);
        if (node == null) {
            throw new BadArgumentException("node " + nodeId + " is not open in this process");
        }
        return node;
    }

    void stopServing(VerbsNode node) {
        if (bootstrap != null && options.hasAddress(node.nodeId())) {
            bootstrap.stopServing(node);
        }
    }

    void forget(VerbsNode node) {
        nodes.remove(node.nodeId(), node);
    }

    /** Stops answering peers, closes every node this fabric opened, then the device context. Idempotent. */
    @Override
    public synchronized void close() {
        if (bootstrap != null) {
            bootstrap.close();
        }
        for (VerbsNode node : List.copyOf(nodes.values())) {
            node.close();
        }
        if (!context.isClosed()) {
            context.close();
        }
    }
}
