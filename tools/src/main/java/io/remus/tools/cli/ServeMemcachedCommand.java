package io.remus.tools.cli;

import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.memcached.DelegatedCache;
import io.remus.memcached.MemcachedEngine;
import io.remus.memcached.MemcachedServer;
import io.remus.memcached.ReplicatedCache;
import io.remus.memcached.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * {@code remus serve memcached}: a memcached text-protocol server on every node of a simulator cluster in this
 * process (node {@code i} on {@code --port + i}), over one store, so every port sees the same items. Serves until
 * the process is stopped, or for {@code --duration}. The store's engine ({@code --engine}) is
 * {@link ReplicatedCache} (each shard a replicated log on 3 nodes with leader fail-over) by default on 3 or more
 * nodes, and {@link DelegatedCache} (each shard one trustee on one node) below 3 or when asked for.
 *
 * <p>With one process per node (by the rule of {@link ClusterOptions}: {@code --cluster}, a join argument, or a
 * launcher's rank), this process joins a cluster with {@link RemusCluster#join} and is one node of the store
 * ({@link ReplicatedCache#join} or {@link DelegatedCache#join}): it hosts its members or trustees of the shards,
 * finds the other nodes' in the cluster's name directory, and serves its own port, {@code --port} plus its node
 * id. In one JVM the replicated engine joins one {@link RemusCluster} per simulator node, each on a thread. It stops at {@code --duration}'s end or on
 * {@code SIGTERM} (a shutdown hook waits, up to {@link #STOP_BOUND}, until the server, the store and the cluster
 * membership are closed), and prints {@code node N: stopped} once they are.
 */
@Command(name = "memcached", mixinStandardHelpOptions = true,
        description = {"Serve the memcached text protocol on every node of a simulator cluster in this process "
                + "(node i on port --port + i), over one store: keys hash to shards, so every port sees the same "
                + "items. --engine replicated (the default on 3 or more nodes): each shard a replicated log on 3 "
                + "nodes (Mu-style, with leader fail-over), so a node's crash loses no acknowledged command; values "
                + "up to " + ReplicatedCache.MAX_ITEM_BYTES + " bytes. --engine delegated (the default below 3 "
                + "nodes): each shard held by a trustee on one node; values up to " + DelegatedCache.MAX_ITEM_BYTES
                + " bytes.", "",
                "One process per node instead with --cluster, or (without --no-cluster) a RemusCluster join argument "
                        + "this command does not know (--node-id=N, --node.count=N, --rendezvous=DIR|tcp://HOST:PORT, "
                        + "--hostfile=FILE, ...), or a launcher's rank with a size above 1 (mpirun: "
                        + "OMPI_COMM_WORLD_RANK/SIZE; srun: SLURM_PROCID/SLURM_NTASKS; PMI_RANK/PMI_SIZE): each process "
                        + "is one node on --fabric verbs (default) or shm, holds its members of the shards' groups "
                        + "(replicated: shard s on nodes s, s+1, s+2 mod the node count) or the trustees of its shards "
                        + "(delegated: shard s on node s mod the node count), and serves port --port + its node id; every port sees the same "
                        + "items. Stops at --duration's end or on SIGTERM. Give every process the same flags.", ""})
public final class ServeMemcachedCommand extends ClusterCapableCommand {
    /** A command that reads this process's environment. */
    public ServeMemcachedCommand() {
        this(System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    ServeMemcachedCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
    }

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "Simulator nodes, each with a server; "
            + "with one process per node, the cluster's size when given (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "11211", description = "Node 0's port; node i listens on port + i; 0 picks free ports (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--shards", defaultValue = "8", description = "Shards, spread over the nodes: replica groups "
            + "of 3 (1.." + ReplicatedCache.MAX_SHARDS + ") or one trustee each (1..1024) (default ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--engine", paramLabel = "replicated|delegated", description = "The store: replicated (each shard "
            + "a replicated log on 3 nodes, leader fail-over, needs 3 or more nodes) or delegated (each shard one "
            + "trustee on one node). Default: replicated when the cluster has 3 or more nodes, delegated below.")
    String engine;

    @Option(names = "--max-connections", defaultValue = "4096", description = "Open connections per server (default ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop after this many seconds (default: serve until stopped).")
    Long durationSeconds;

    @Mixin
    FabricOption fabricOption;

    @Mixin
    DeviceOption deviceOption;

    @Mixin
    ClusterOptions clusterOptions;

    /** The replicated engine's name for {@code --engine}. */
    static final String REPLICATED = "replicated";
    /** The delegated engine's name for {@code --engine}. */
    static final String DELEGATED = "delegated";

    /** Engines a store accepts over its life: one per server, and room for servers a program adds. */
    static final int ENGINES_PER_NODE = 4;
    /** The memory each node asks for when the join arguments name none: its trustees and its engines' responses. */
    static final long SEGMENT_BYTES = 32L << 20;
    /** How long a {@code SIGTERM}'s shutdown hook waits for the server, the store and the membership to close. */
    static final Duration STOP_BOUND = RemusCluster.DEFAULT_SHUTDOWN_TIMEOUT.plusSeconds(30);

    @Override
    ClusterOptions clusterOptions() {
        return clusterOptions;
    }

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
        if (clusterMode()) {
            return callAsNode(spec.commandLine().getOut());
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        if (fabricOption.fabric != null && fabricOption.fabric != FabricKind.SIM || deviceOption.device != null) {
            throw usage("serve memcached in one JVM runs on the simulator only; --fabric verbs or shm and -d are for "
                    + "one process per node (--cluster)");
        }
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
        if (replicated(nodes)) {
            return serveReplicatedInOneJvm(out);
        }
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
                printPortsAndServe(out, servers);
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

    /**
     * {@return whether the store is the replicated engine on {@code nodeCount} nodes}: {@code --engine}, or by
     * default replicated from {@value ReplicatedCache#MIN_NODES} nodes on
     *
     * @throws ParameterException naming the flag, for an unknown engine, replicated below 3 nodes or more shards than
     *                            the replicated engine takes
     */
    private boolean replicated(int nodeCount) {
        boolean replicated;
        if (engine == null) {
            replicated = nodeCount >= ReplicatedCache.MIN_NODES;
        } else if (engine.equals(REPLICATED)) {
            if (nodeCount < ReplicatedCache.MIN_NODES) {
                throw usage("--engine replicated needs at least " + ReplicatedCache.MIN_NODES + " nodes (one per member"
                        + " of a shard's group), got " + nodeCount + "; --engine delegated runs on any");
            }
            replicated = true;
        } else if (engine.equals(DELEGATED)) {
            replicated = false;
        } else {
            throw usage("--engine must be " + REPLICATED + " or " + DELEGATED + ", got " + engine);
        }
        if (replicated && shards > ReplicatedCache.MAX_SHARDS) {
            throw usage("--shards must be in 1.." + ReplicatedCache.MAX_SHARDS + " with the replicated engine (one "
                    + "replication plane each), got " + shards + "; --engine delegated takes up to 1024");
        }
        return replicated;
    }

    /** Prints each server's address and serves until {@code --duration} ends (or forever). */
    private void printPortsAndServe(PrintWriter out, List<MemcachedServer> servers) throws InterruptedException {
        for (int n = 0; n < servers.size(); n++) {
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
    }

    /**
     * The replicated engine in one JVM: one {@link RemusCluster} per simulator node on one fabric, each joined and
     * joining the store on a thread of its own (as the processes of a cluster would), a server per node.
     */
    private int serveReplicatedInOneJvm(PrintWriter out) throws InterruptedException {
        LongSupplier clock = () -> System.currentTimeMillis() / 1000;
        StringBuilder names = new StringBuilder();
        for (int n = 0; n < nodes; n++) {
            names.append(n == 0 ? "" : ",").append("sim").append(n);
        }
        List<RemusCluster> clusters = new ArrayList<>();
        List<ReplicatedCache> caches = new ArrayList<>();
        List<MemcachedServer> servers = new ArrayList<>();
        try (SimFabric fabric = new SimFabric()) {
            try {
                List<CompletableFuture<RemusCluster>> joined = onEveryNode(n -> RemusCluster.builder().fabric(fabric)
                        .args("--nodes=" + names, "--node-id", Integer.toString(n), "--seg-size=64M").join());
                for (CompletableFuture<RemusCluster> f : joined) {
                    clusters.add(await(f));
                }
                List<CompletableFuture<ReplicatedCache>> stores = onEveryNode(n -> ReplicatedCache.join(
                        clusters.get(n), shards, ENGINES_PER_NODE * nodes, clock, ONE_JVM_JOIN_TIMEOUT));
                for (CompletableFuture<ReplicatedCache> f : stores) {
                    caches.add(await(f));
                }
                for (int n = 0; n < nodes; n++) {
                    int node = n;
                    ServerConfig config = new ServerConfig(host, port == 0 ? 0 : port + n, maxConnections, 1 << 20);
                    servers.add(MemcachedServer.start(config, () -> caches.get(node).openEngine(node), clock));
                }
                out.println("memcached text protocol on " + nodes + " simulator nodes, " + shards + " shards "
                        + "replicated on " + ReplicatedCache.REPLICAS + " nodes each, values up to "
                        + ReplicatedCache.MAX_ITEM_BYTES + " bytes");
                printPortsAndServe(out, servers);
            } finally {
                for (MemcachedServer s : servers) {
                    s.close();
                }
                for (ReplicatedCache c : caches) {
                    c.close();
                }
                List<CompletableFuture<Boolean>> left = new ArrayList<>();
                for (RemusCluster c : clusters) {
                    left.add(CompletableFuture.supplyAsync(() -> {
                        c.close();
                        return true;
                    }, runnable -> Thread.ofPlatform().daemon().start(runnable)));
                }
                for (CompletableFuture<Boolean> f : left) {
                    await(f);
                }
            }
        }
        return 0;
    }

    /** How long the replicated engine's nodes in one JVM wait for each other's members. */
    static final Duration ONE_JVM_JOIN_TIMEOUT = Duration.ofSeconds(60);

    private <T> List<CompletableFuture<T>> onEveryNode(IntFunction<T> body) {
        List<CompletableFuture<T>> out = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            int node = n;
            out.add(CompletableFuture.supplyAsync(() -> body.apply(node),
                    runnable -> Thread.ofPlatform().daemon().name("remus-serve-memcached-node-" + node).start(runnable)));
        }
        return out;
    }

    private static <T> T await(CompletableFuture<T> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** One process per node: joins, serves this node's port until {@code --duration} ends or {@code SIGTERM}. */
    private int callAsNode(PrintWriter out) throws InterruptedException {
        checkServerFlags();
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricOption.fabric, deviceOption.device, environment,
                joinSetup, nodes);
        int size = join.size();
        if (port < 0 || (port > 0 && port + size - 1 > 65535)) {
            throw usage("--port must leave room for " + size + " ports below 65536, got " + port);
        }
        boolean replicated = replicated(size);
        join.ensureSegment(SEGMENT_BYTES);
        LongSupplier clock = () -> System.currentTimeMillis() / 1000;
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                closed.await(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "remus-serve-memcached-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            int rank;
            try (RemusCluster cluster = join.join();
                 Store store = replicated
                         ? Store.of(ReplicatedCache.join(cluster, shards, ENGINES_PER_NODE * size, clock, join.timeout()))
                         : Store.of(DelegatedCache.join(cluster, shards, ENGINES_PER_NODE * size, clock, join.timeout()));
                 MemcachedServer server = MemcachedServer.start(new ServerConfig(host, port == 0 ? 0 : port + cluster.nodeId(),
                         maxConnections, 1 << 20), () -> store.engines().apply(cluster.nodeId()), clock)) {
                rank = cluster.nodeId();
                out.println("memcached text protocol on node " + rank + " of " + size + " (fabric "
                        + cluster.fabric().name() + "), " + shards + " shards " + store.what() + ", values up to "
                        + store.maxItemBytes() + " bytes");
                out.println("node " + rank + ": " + host + ":" + server.port());
                out.println(durationSeconds == null ? "serving until stopped" : "serving for " + durationSeconds + " s");
                out.flush();
                if (durationSeconds == null) {
                    stop.await();
                } else {
                    stop.await(Duration.ofSeconds(durationSeconds).toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            out.println("node " + rank + ": stopped");
            out.flush();
        } finally {
            closed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs: SIGTERM
            }
        }
        return 0;
    }

    /**
     * One node's part of a store, whichever the engine.
     *
     * @param engines      a handle for this node's server
     * @param maxItemBytes the largest value
     * @param what         how the shards are kept, for the first line
     * @param closer       closes the store
     */
    private record Store(IntFunction<MemcachedEngine> engines, int maxItemBytes, String what, Runnable closer)
            implements AutoCloseable {
        static Store of(ReplicatedCache cache) {
            return new Store(cache::openEngine, cache.maxItemBytes(), "replicated on " + ReplicatedCache.REPLICAS
                    + " nodes each", cache::close);
        }

        static Store of(DelegatedCache cache) {
            return new Store(cache::openEngine, cache.maxItemBytes(), "delegated to trustees", cache::close);
        }

        @Override
        public void close() {
            closer.run();
        }
    }

    private void checkServerFlags() {
        if (shards < 1 || shards > 1024) {
            throw usage("--shards must be in 1..1024, got " + shards);
        }
        if (maxConnections < 1) {
            throw usage("--max-connections must be positive, got " + maxConnections);
        }
        if (durationSeconds != null && durationSeconds < 0) {
            throw usage("--duration must not be negative, got " + durationSeconds);
        }
    }
}
