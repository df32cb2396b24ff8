package io.remus.core.verbs;

import io.remus.core.BadArgumentException;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;
import io.remus.core.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.verbs.bootstrap.BootstrapClient;
import io.remus.core.verbs.bootstrap.BootstrapMessage;
import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.core.verbs.bootstrap.BootstrapServer;
import io.remus.verbs.Context;
import io.remus.verbs.Endpoint;
import io.remus.verbs.VerbsException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
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
 * QP connected to itself; a QP to a node of this process is connected to a serving QP that the
 * peer creates in its own domain; a QP to a node of another process (one with a bootstrap address
 * in {@link VerbsFabricOptions}) is connected through that process's bootstrap service
 * ({@link BootstrapServer}: a TCP exchange of queue pair endpoints), which each opened node with
 * an address starts. Published regions of other processes are asked for over the same service.
 * Every QP a compute thread keeps to a peer (each lane) is its own connection.
 *
 * <p>Posting and polling allocate nothing; connecting, registering and bootstrap are control path.
 */
public final class VerbsFabric implements Fabric {
    private static final long POLL_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final VerbsFabricOptions options;
    private final Context context;
    private final ConcurrentHashMap<Integer, VerbsNode> nodes = new ConcurrentHashMap<>();
    private final List<BootstrapServer> servers = new ArrayList<>();

    private VerbsFabric(VerbsFabricOptions options) {
        this.options = options;
        try {
            this.context = Context.open(options.device());
        } catch (VerbsException e) {
            throw new RemusException("cannot open RDMA device " + options.device() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param device the RDMA device, e.g. {@code rxe0}
     * @return a fabric whose nodes all live in this process
     * @throws RemusException when the device cannot be opened
     */
    public static VerbsFabric open(String device) {
        return new VerbsFabric(VerbsFabricOptions.singleProcess(device));
    }

    /**
     * @param options device, port and the bootstrap addresses of a multi-process cluster
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

    /** @return the options */
    public VerbsFabricOptions options() {
        return options;
    }

    Context context() {
        return context;
    }

    /**
     * Opens node {@code nodeId} in this process; when it has a bootstrap address, starts its
     * bootstrap service on that address's port (all interfaces).
     */
    @Override
    public synchronized FabricNode open(int nodeId) {
        if (nodeId < 0 || nodeId > RemotePtr.MAX_NODE_ID) {
            throw new BadArgumentException("node id " + nodeId + " is outside 0.." + RemotePtr.MAX_NODE_ID);
        }
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
                servers.add(new BootstrapServer(new InetSocketAddress(options.bootstrapAddresses().get(nodeId).getPort()),
                        this::serve));
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }
        return node;
    }

    @Override
    public List<RemoteRegion> publishedRegions(int nodeId) {
        VerbsNode node = nodes.get(nodeId);
        if (node != null) {
            return node.published();
        }
        if (!options.hasAddress(nodeId)) {
            return List.of();
        }
        BootstrapMessage reply = BootstrapClient.exchange(options.bootstrapAddresses().get(nodeId),
                new BootstrapMessage.RegionsRequest(nodeId), options.connectTimeout());
        if (!(reply instanceof BootstrapMessage.RegionsReply regions) || regions.nodeId() != nodeId) {
            throw new BootstrapProtocolException("node " + nodeId + " answered a region request with " + reply);
        }
        return regions.regions();
    }

    /**
     * Waits until node {@code nodeId} (in this process or another) publishes at least one region.
     *
     * @param nodeId  a node
     * @param timeout how long to wait
     * @return its regions
     * @throws RemoteTimeoutException when it published nothing in time
     */
    public List<RemoteRegion> awaitPublishedRegions(int nodeId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
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
            throw new BadArgumentException("node " + nodeId + " is neither open in this process nor has a bootstrap address");
        }
    }

    VerbsNode localNode(int nodeId) {
        return nodes.get(nodeId);
    }

    Endpoint requestResponder(int fromNode, int toNode, Endpoint requester) {
        BootstrapMessage reply = BootstrapClient.exchange(options.bootstrapAddresses().get(toNode),
                new BootstrapMessage.ConnectRequest(fromNode, toNode, requester), options.connectTimeout());
        if (!(reply instanceof BootstrapMessage.ConnectReply connected)) {
            throw new BootstrapProtocolException("node " + toNode + " answered a connect request with " + reply);
        }
        return connected.endpoint();
    }

    private BootstrapMessage serve(BootstrapMessage request) {
        return switch (request) {
            case BootstrapMessage.RegionsRequest r -> new BootstrapMessage.RegionsReply(r.nodeId(), servedNode(r.nodeId()).published());
            case BootstrapMessage.ConnectRequest r -> new BootstrapMessage.ConnectReply(servedNode(r.toNode()).respond(r.endpoint()).endpoint());
            default -> new BootstrapMessage.ErrorReply("not a request: " + request);
        };
    }

    private VerbsNode servedNode(int nodeId) {
        VerbsNode node = nodes.get(nodeId);
        if (node == null) {
            throw new BadArgumentException("node " + nodeId + " is not open in this process");
        }
        return node;
    }

    void forget(VerbsNode node) {
        nodes.remove(node.nodeId(), node);
    }

    /** Stops the bootstrap services, closes every node this fabric opened, then the device context. Idempotent. */
    @Override
    public synchronized void close() {
        for (BootstrapServer s : servers) {
            s.close();
        }
        servers.clear();
        for (VerbsNode node : List.copyOf(nodes.values())) {
            node.close();
        }
        if (!context.isClosed()) {
            context.close();
        }
    }
}
