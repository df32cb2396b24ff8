package io.remus.core.verbs;

import io.remus.core.error.RemusException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.verbs.bootstrap.BootstrapClient;
import io.remus.core.verbs.bootstrap.BootstrapMessage;
import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.core.verbs.bootstrap.BootstrapServer;
import io.remus.verbs.Endpoint;
import io.remus.verbs.PreparedQueuePair;
import io.remus.verbs.QueuePairBuilder;
import io.remus.verbs.VerbsException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link BootstrapKind#TCP}: each served node answers {@link BootstrapMessage}s on its address's
 * port (all interfaces); a requester sends its queue pair's endpoint and connects to the endpoint
 * of the serving queue pair the peer creates; region lists are asked for the same way.
 */
final class TcpBootstrap implements PeerBootstrap {
    private final VerbsFabric fabric;
    private final Map<Integer, BootstrapServer> servers = new ConcurrentHashMap<>();

    TcpBootstrap(VerbsFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public void serve(VerbsNode node) {
        InetSocketAddress address = fabric.options().bootstrapAddresses().get(node.nodeId());
        servers.put(node.nodeId(), new BootstrapServer(new InetSocketAddress(address.getPort()), this::handle));
    }

    @Override
    public void stopServing(VerbsNode node) {
        BootstrapServer s = servers.remove(node.nodeId());
        if (s != null) {
            s.close();
        }
    }

    @Override
    public List<RemoteRegion> publishedRegions(int nodeId, Duration attemptTimeout) {
        BootstrapMessage reply = exchange(nodeId, new BootstrapMessage.RegionsRequest(nodeId), attemptTimeout);
        if (!(reply instanceof BootstrapMessage.RegionsReply regions) || regions.nodeId() != nodeId) {
            throw new BootstrapProtocolException("node " + nodeId + " answered a region request with " + reply);
        }
        return regions.regions();
    }

    @Override
    public PeerConnection connect(VerbsNode from, int peer, int plane, QueuePairBuilder builder, Duration attemptTimeout) {
        PreparedQueuePair mine = builder.build();
        try {
            BootstrapMessage reply = exchange(peer, new BootstrapMessage.ConnectRequest(from.nodeId(), peer,
                    mine.localEndpoint(), plane), attemptTimeout);
            if (!(reply instanceof BootstrapMessage.ConnectReply connected)) {
                throw new BootstrapProtocolException("node " + peer + " answered a connect request with " + reply);
            }
            Endpoint theirs = connected.endpoint();
            fabric.reachedIncarnation(peer, connected.incarnation());
            return new PeerConnection(mine.connect(theirs, VerbsNode.CONNECTION_OPTIONS), null, null,
                    connected.incarnation());
        } catch (VerbsException e) {
            mine.close();
            throw new RemusException("connecting node " + from.nodeId() + " to node " + peer + " failed", e);
        } catch (RuntimeException e) {
            mine.close();
            throw e;
        }
    }

    /**
     * One exchange with {@code peer}'s bootstrap server: for a peer this process never reached, for up to
     * the connect timeout; for one reached before, bounded by {@code attemptTimeout} and refused at once
     * while its back-off lasts ({@link PeerReachability}).
     */
    private BootstrapMessage exchange(int peer, BootstrapMessage request, Duration attemptTimeout) {
        PeerReachability.Budget budget = fabric.reachability().budget(peer, fabric.options().connectTimeout(),
                attemptTimeout);
        BootstrapMessage reply;
        try {
            reply = BootstrapClient.exchange(fabric.options().bootstrapAddresses().get(peer), request, budget.timeout());
        } catch (RuntimeException e) {
            fabric.reachability().failed(peer, budget, e);
            throw e;
        }
        fabric.reachability().reached(peer);
        return reply;
    }

    private BootstrapMessage handle(BootstrapMessage request) {
        return switch (request) {
            case BootstrapMessage.RegionsRequest r -> new BootstrapMessage.RegionsReply(r.nodeId(),
                    fabric.servedNode(r.nodeId()).published());
            case BootstrapMessage.ConnectRequest r -> {
                VerbsNode served = fabric.servedNode(r.toNode());
                yield new BootstrapMessage.ConnectReply(served.respond(r.fromNode(), r.plane(), r.endpoint()).endpoint(),
                        served.incarnation());
            }
            default -> new BootstrapMessage.ErrorReply("not a request: " + request);
        };
    }

    @Override
    public void close() {
        for (BootstrapServer s : List.copyOf(servers.values())) {
            s.close();
        }
        servers.clear();
    }
}
