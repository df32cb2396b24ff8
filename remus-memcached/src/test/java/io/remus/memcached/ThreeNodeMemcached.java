package io.remus.memcached;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;

import java.util.ArrayList;
import java.util.List;

/** Test fixture: a 3-node simulator cluster in this JVM, a delegated store over it and one server per node. */
final class ThreeNodeMemcached implements AutoCloseable {
    static final int NODES = 3;
    final SimFabric fabric = new SimFabric();
    final List<RemusNode> nodes = new ArrayList<>();
    final DelegatedCache cache;
    final List<MemcachedServer> servers = new ArrayList<>();

    ThreeNodeMemcached() {
        this(ServerConfig.of("127.0.0.1", 0));
    }

    ThreeNodeMemcached(ServerConfig config) {
        ClusterConfig cluster = ClusterConfig.builder().nodeCount(NODES).segmentSize(32L << 20).threadsPerNode(4).build();
        for (int n = 0; n < NODES; n++) {
            nodes.add(RemusNode.start(fabric, cluster.withNodeId(n)));
        }
        cache = DelegatedCache.start(nodes, 6, 8, () -> System.currentTimeMillis() / 1000);
        for (int n = 0; n < NODES; n++) {
            int node = n;
            servers.add(MemcachedServer.start(config, () -> cache.openEngine(node), () -> System.currentTimeMillis() / 1000));
        }
    }

    int port(int node) {
        return servers.get(node).port();
    }

    @Override
    public void close() {
        for (MemcachedServer s : servers) {
            s.close();
        }
        cache.close();
        for (RemusNode n : nodes) {
            n.close();
        }
        fabric.close();
    }
}
