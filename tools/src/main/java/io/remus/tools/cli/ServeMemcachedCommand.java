package io.remus.tools.cli;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.memcached.DelegatedCache;
import io.remus.memcached.MemcachedServer;
import io.remus.memcached.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code remus serve memcached}: a memcached text-protocol server on every node of a simulator cluster in this
 * process (node {@code i} on {@code --port + i}), over one store whose shards are delegated to trustees on the
 * nodes ({@link DelegatedCache}), so every port sees the same items. Serves until the process is stopped, or
 * for {@code --duration}.
 */
@Command(name = "memcached", mixinStandardHelpOptions = true,
        description = {"Serve the memcached text protocol on every node of a simulator cluster in this process "
                + "(node i on port --port + i), over one store: keys hash to shards, each shard held by a trustee "
                + "on one node (delegation), so every port sees the same items. Values up to "
                + DelegatedCache.MAX_ITEM_BYTES + " bytes (the trustee's payload less header and key)."})
public final class ServeMemcachedCommand implements Callable<Integer> {
    /** Empty: picocli fills the fields. */
    public ServeMemcachedCommand() {
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "Simulator nodes, each with a server (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "11211", description = "Node 0's port; node i listens on port + i; 0 picks free ports (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--shards", defaultValue = "8", description = "Shards, one trustee each, spread over the nodes (1..1024, default ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--max-connections", defaultValue = "4096", description = "Open connections per server (default ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop after this many seconds (default: serve until stopped).")
    Long durationSeconds;

    /** Engines a store accepts over its life: one per server, and room for servers a program adds. */
    static final int ENGINES_PER_NODE = 4;

    /**
     * Starts the cluster, the store and the servers, prints each node's address, and serves.
     *
     * @return 0 once {@code --duration} passed
     * @throws ParameterException naming the flag, for a bad value
     * @throws Exception          when a port cannot be bound ({@link java.io.UncheckedIOException}) or the store did
     *                            not start
     */
    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 64) {
            throw new ParameterException(spec.commandLine(), "--nodes must be in 1..64, got " + nodes);
        }
        if (port < 0 || (port > 0 && port + nodes - 1 > 65535)) {
            throw new ParameterException(spec.commandLine(), "--port must leave room for " + nodes + " ports below 65536, got " + port);
        }
        if (shards < 1 || shards > 1024) {
            throw new ParameterException(spec.commandLine(), "--shards must be in 1..1024, got " + shards);
        }
        if (maxConnections < 1) {
            throw new ParameterException(spec.commandLine(), "--max-connections must be positive, got " + maxConnections);
        }
        if (durationSeconds != null && durationSeconds < 0) {
            throw new ParameterException(spec.commandLine(), "--duration must not be negative, got " + durationSeconds);
        }
        PrintWriter out = spec.commandLine().getOut();
        ClusterConfig cluster = ClusterConfig.builder().nodeCount(nodes).segmentSize(64L << 20)
                .threadsPerNode(ENGINES_PER_NODE + 1).build();
        List<RemusNode> started = new ArrayList<>();
        List<MemcachedServer> servers = new ArrayList<>();
        try (SimFabric fabric = new SimFabric()) {
            for (int n = 0; n < nodes; n++) {
                started.add(RemusNode.start(fabric, cluster.withNodeId(n)));
            }
            try (DelegatedCache cache = DelegatedCache.start(started, shards, ENGINES_PER_NODE * nodes,
                    () -> System.currentTimeMillis() / 1000)) {
                for (int n = 0; n < nodes; n++) {
                    int node = n;
                    ServerConfig config = new ServerConfig(host, port == 0 ? 0 : port + n, maxConnections, 1 << 20);
                    servers.add(MemcachedServer.start(config, () -> cache.openEngine(node), () -> System.currentTimeMillis() / 1000));
                }
                out.println("memcached text protocol on " + nodes + " simulator nodes, " + shards
                        + " shards delegated to trustees, values up to " + cache.maxItemBytes() + " bytes");
                for (int n = 0; n < nodes; n++) {
                    out.println("node " + n + ": " + host + ":" + servers.get(n).port());
                }
                out.println(durationSeconds == null ? "serving until stopped" : "serving for " + durationSeconds + " s");
                out.flush();
                CountDownLatch forever = new CountDownLatch(1);
                if (durationSeconds == null) {
                    forever.await();
                } else {
                    forever.await(Duration.ofSeconds(durationSeconds).toMillis(), TimeUnit.MILLISECONDS);
                }
            } finally {
                for (MemcachedServer s : servers) {
                    s.close();
                }
            }
        } finally {
            for (RemusNode n : started) {
                n.close();
            }
        }
        return 0;
    }
}
