package io.remus.bench.index;

import io.remus.core.fabric.Plane;
import io.remus.bench.engines.SimTime;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.DsSweep;
import io.remus.bench.structure.KeyChooser;
import io.remus.bench.structure.OpType;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import io.remus.ds.index.IndexShardServer;
import io.remus.ds.index.IndexShards;
import io.remus.ds.index.RemusIndex;
import io.remus.ds.replicate.ReplicaGroup;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The index benchmark: the replicated, sharded index of {@code io.remus.ds.index} under YCSB A, B or C (B. F.
 * Cooper et al., "Benchmarking Cloud Serving Systems with YCSB", SoCC 2010) with zipfian keys, measured on the
 * simulator in virtual time, and the unreplicated {@code RemoteHashMap} on the same workload beside it.
 *
 * <p><b>The index.</b> {@code shards} groups of {@code 2f + 1} nodes ({@link IndexBenchmarkConfig}), each member
 * with one server thread ({@link IndexShardServer}: its log, its state machine and its method on the node's
 * {@link RpcEndpoint}); every member grants write access to its group's first member, which leads with term 1
 * (Mu's permission switch: Aguilera et al., "Microsecond Consensus for Microsecond Applications", OSDI 2020). Each
 * client node runs one thread with a {@link RemusIndex} client on its endpoint (a node has one endpoint, served by one
 * thread). The clients first load every key (client {@code c} of {@code C} puts the keys {@code k} with
 * {@code k mod C == c}), then are released together and run their operations: the operation and key of each come from
 * the project's YCSB generator ({@link KeyChooser} seeded as {@code DsBenchmark} seeds its worker {@code c}, and
 * {@link io.remus.bench.structure.Ycsb#operation}), a read a {@link RemusIndex#get}, an update a
 * {@link RemusIndex#put} of a value of {@code valueBytes}. Each operation is timed at its client from the call to the
 * answer. Before the release each leader's server thread reads its compute thread's counters, and again once the
 * clients are done, so that the RDMA counts are those of the measured operations alone.
 *
 * <p><b>The hash map</b> runs afterwards on a fresh fabric of the same model and seed
 * ({@link IndexBenchmarkConfig#mapConfig()}: the map on node 0, one worker on each of {@code clients} further nodes,
 * the same operations on the same keys), through {@code bench ds}' engine ({@link DsSweep}).
 *
 * <p>Runs only in virtual time ({@link SimTime#isVirtual()}). Every wait is bounded in virtual time: the servers'
 * start and the load by {@link #START_BOUND}, each operation by {@link #OPERATION_TIMEOUT}, an attempt by
 * {@link #ATTEMPT_TIMEOUT}, a leader's commit by {@link #COMMIT_TIMEOUT}, the run by {@link #RUN_BOUND}.
 */
public final class IndexBenchmark {
    /** How long a leader waits for a majority per request before answering RETRY. */
    public static final Duration COMMIT_TIMEOUT = Duration.ofMillis(5);
    /** How long a client's attempt waits for an answer before it tries the next member. */
    public static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(20);
    /** How long one operation, with its retries, may take. */
    public static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(5);
    /** How long the servers may take to start, and the clients to load the keys. */
    public static final Duration START_BOUND = Duration.ofMinutes(10);
    /** How long the measured operations may take. */
    public static final Duration RUN_BOUND = Duration.ofMinutes(10);
    /** How long a server thread waits for a request before it looks at its flags again, in nanoseconds. */
    public static final long SERVE_NANOS = 20_000;
    /** The index's name: its shards' logs are {@code bench-index-s}. */
    static final String NAME = "bench-index";
    private static final long TERM = 1;
    private static final long CHECK_NANOS = 10_000;
    private static final int RING_SLOTS = 8;

    private IndexBenchmark() {
    }

    /**
     * Runs the index, then the hash map, in virtual time.
     *
     * @param config what to run
     * @param model  the simulator's cost model; it must charge time
     * @param time   the clock: virtual time under {@code model} ({@link SimTime#virtual})
     * @return the measurements of both
     * @throws BadArgumentException naming the clock, when {@code time} is the host's
     * @throws RemusException       when a server or client failed, or a wait passed its bound
     * @throws InterruptedException when interrupted
     */
    public static IndexBenchmarkResult run(IndexBenchmarkConfig config, SimCostModel model, SimTime time)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(time, "time");
        if (!time.isVirtual()) {
            throw new BadArgumentException("the index benchmark runs in virtual time only, got the host's clock");
        }
        SimOptions options = time.simOptions(SimOptions.defaults().withCostModel(model));
        Measured index = time.call(() -> {
            try (SimFabric fabric = new SimFabric(options)) {
                return new Run(fabric, config).measure();
            }
        });
        DsRun map = DsSweep.run(() -> new SimFabric(options), List.of(config.mapConfig()), time).getFirst();
        return new IndexBenchmarkResult(config, index.elapsed, index.reads, index.found, index.updates, index.replaced,
                LatencySummary.of(index.read), LatencySummary.of(index.update), LatencySummary.of(index.all),
                index.posted, index.roundTrips, index.bytesWritten, index.appends, index.attempts, index.notLeader,
                index.retry, map);
    }

    /** The index's side of a run, added up over its clients and leaders. */
    private static final class Measured {
        long elapsed;
        long reads;
        long found;
        long updates;
        long replaced;
        final Histogram read = LatencyHistograms.create();
        final Histogram update = LatencyHistograms.create();
        final Histogram all = LatencyHistograms.create();
        final long[] posted = new long[Opcode.values().length];
        long roundTrips;
        long bytesWritten;
        long appends;
        long attempts;
        long notLeader;
        long retry;
    }

    /** One client's counts. */
    private static final class ClientCounts {
        long reads;
        long found;
        long updates;
        long replaced;
        long attempts;
        long notLeader;
        long retry;
        long finishedAt;
        final Histogram read = LatencyHistograms.create();
        final Histogram update = LatencyHistograms.create();
    }

    /** One leader's counts over the measured operations. */
    private static final class LeaderCounts {
        final long[] posted = new long[Opcode.values().length];
        long roundTrips;
        long bytesWritten;
        long appends;

        void add(ComputeThread t, IndexShardServer server, int sign) {
            for (Opcode op : Opcode.values()) {
                posted[op.ordinal()] += sign * t.postedOperations(op);
            }
            roundTrips += sign * t.roundTrips();
            bytesWritten += sign * t.bytesWritten();
            appends += sign * server.appends();
        }
    }

    /** {@return key {@code k}'s bytes: the long, big-endian} */
    static byte[] key(long k) {
        return Run.key(k);
    }

    /** The state of one run of the index, shared by the servers', the clients' and the run's own threads. */
    private static final class Run {
        private final IndexBenchmarkConfig config;
        private final IndexShards shards;
        private final RemusNode[] nodes;
        private final RpcEndpoint[] endpoints;
        private final int servers;
        private final AtomicInteger created = new AtomicInteger();
        private final AtomicInteger serving = new AtomicInteger();
        private final AtomicInteger loaded = new AtomicInteger();
        private final AtomicInteger snapshots = new AtomicInteger();
        private final AtomicBoolean measuring = new AtomicBoolean();
        private final AtomicBoolean go = new AtomicBoolean();
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final ClientCounts[] clients;
        private final LeaderCounts[] leaders;
        private final double zeta;

        Run(SimFabric fabric, IndexBenchmarkConfig config) {
            this.config = config;
            int n = config.nodes();
            this.servers = config.firstClientNode();
            ReplicaGroup[] groups = new ReplicaGroup[config.shards()];
            for (int s = 0; s < groups.length; s++) {
                int[] members = new int[config.replicas()];
                for (int k = 0; k < members.length; k++) {
                    members[k] = s * config.replicas() + k;
                }
                groups[s] = ReplicaGroup.of(members);
            }
            this.shards = IndexShards.of(NAME, groups);
            this.clients = new ClientCounts[config.clients()];
            this.leaders = new LeaderCounts[config.shards()];
            this.zeta = KeyChooser.zeta(config.keys(), config.effectiveTheta());
            long slot = IndexBenchmarkConfig.slotBytes();
            int buffer = (int) Math.max(256 << 10, (4L * (config.replicas() - 1) + 2) * slot);
            long segment = Math.max(8L << 20, 4 * config.logBytes());
            ClusterConfig base = ClusterConfig.builder().nodeCount(n)
                    .memoryNodes(new NodeRange(0, n - 1)).computeNodes(new NodeRange(0, n - 1))
                    .segmentSize(segment).segmentCount(1).threadsPerNode(2).opsInFlightPerThread(32)
                    .bufferSizePerThread(buffer).operationTimeout(OPERATION_TIMEOUT).build();
            this.nodes = new RemusNode[n];
            this.endpoints = new RpcEndpoint[n];
            try {
                for (int i = 0; i < n; i++) {
                    nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
                    endpoints[i] = RpcEndpoint.create(nodes[i].fabricNode(), n, RING_SLOTS);
                }
                for (int c = servers; c < n; c++) {
                    for (int s = 0; s < servers; s++) {
                        endpoints[c].connect(endpoints[s].rings(), START_BOUND);
                        endpoints[s].connect(endpoints[c].rings(), START_BOUND);
                    }
                }
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        Measured measure() throws InterruptedException {
            List<Thread> threads = new ArrayList<>();
            try {
                for (int node = 0; node < servers; node++) {
                    int member = node;
                    threads.add(start("index-bench-server-" + member, () -> serve(member)));
                }
                await(serving, servers, "servers started");
                for (int c = 0; c < config.clients(); c++) {
                    int client = c;
                    threads.add(start("index-bench-client-" + client, () -> client(client)));
                }
                await(loaded, config.clients(), "clients loaded their keys");
                measuring.set(true);
                await(snapshots, config.shards(), "leaders read their counters");
                long begin = ThreadTime.nanoTime();
                go.set(true);
                await(done, config.clients(), "clients finished " + config.opsPerClient() + " operations", RUN_BOUND);
                stop.set(true);
                joinAll(threads);
                rethrow();
                return sum(begin);
            } finally {
                stop.set(true);
                joinAll(threads);
                close();
                rethrow();
            }
        }

        private Measured sum(long begin) {
            Measured m = new Measured();
            long last = begin;
            for (ClientCounts c : clients) {
                m.reads += c.reads;
                m.found += c.found;
                m.updates += c.updates;
                m.replaced += c.replaced;
                m.attempts += c.attempts;
                m.notLeader += c.notLeader;
                m.retry += c.retry;
                m.read.add(c.read);
                m.update.add(c.update);
                m.all.add(c.read);
                m.all.add(c.update);
                last = Math.max(last, c.finishedAt);
            }
            for (LeaderCounts l : leaders) {
                for (int op = 0; op < m.posted.length; op++) {
                    m.posted[op] += l.posted[op];
                }
                m.roundTrips += l.roundTrips;
                m.bytesWritten += l.bytesWritten;
                m.appends += l.appends;
            }
            m.elapsed = last - begin;
            return m;
        }

        /** A member's server thread: creates its server, leads when first in its group, serves until told to stop. */
        private void serve(int node) {
            int shard = node / config.replicas();
            ReplicaGroup group = shards.group(shard);
            int leader = group.member(0);
            try (ComputeThread t = nodes[node].newComputeThread(Plane.REPLICATION);
                 IndexShardServer server = IndexShardServer.create(nodes[node], t, endpoints[node], shards, shard,
                         config.logSlots(), COMMIT_TIMEOUT)) {
                server.grantWriteTo(leader);
                created.incrementAndGet();
                if (node == leader) {
                    await(created, servers, "members created their logs");
                    server.lead(TERM, START_BOUND);
                }
                serving.incrementAndGet();
                LeaderCounts counts = node == leader ? new LeaderCounts() : null;
                boolean counting = false;
                while (!stop.get()) {
                    if (counts != null && !counting && measuring.get()) {
                        counts.add(t, server, -1);
                        counting = true;
                        snapshots.incrementAndGet();
                    }
                    server.runOnce(Duration.ofNanos(SERVE_NANOS));
                }
                if (counting) {
                    counts.add(t, server, 1);
                    leaders[shard] = counts;
                }
            } catch (Throwable e) {
                fail(e);
            }
        }

        /** A client thread: loads its share of the keys, waits for the release, runs its operations. */
        private void client(int client) {
            int node = config.firstClientNode() + client;
            ClientCounts counts = new ClientCounts();
            RemusIndex index = new RemusIndex(endpoints[node], shards, 1 + node, ATTEMPT_TIMEOUT);
            byte[] value = new byte[config.valueBytes()];
            for (long k = client; k < config.keys(); k += config.clients()) {
                value[0] = (byte) k;
                index.put(key(k), value, OPERATION_TIMEOUT);
            }
            loaded.incrementAndGet();
            long deadline = ThreadTime.nanoTime() + START_BOUND.toNanos();
            while (!go.get()) {
                if (stop.get()) {
                    return;
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("client " + client + " was not released within " + START_BOUND);
                }
                ThreadTime.parkNanos(go, CHECK_NANOS);
            }
            long attempts = index.attempts();
            long notLeader = index.notLeaderAnswers();
            long retry = index.retryAnswers();
            KeyChooser keys = new KeyChooser(new SplittableRandom(config.seed() * 1_000_003L + client), 0, config.keys(),
                    config.effectiveTheta(), zeta);
            for (long n = 0; n < config.opsPerClient() && !stop.get(); n++) {
                OpType op = config.ycsb().operation(keys.percent());
                long k = keys.next();
                byte[] key = key(k);
                if (op == OpType.LOOKUP) {
                    long s = ThreadTime.nanoTime();
                    boolean hit = index.get(key, OPERATION_TIMEOUT) != null;
                    LatencyHistograms.record(counts.read, ThreadTime.nanoTime() - s);
                    counts.reads++;
                    counts.found += hit ? 1 : 0;
                } else {
                    value[0] = (byte) k;
                    long s = ThreadTime.nanoTime();
                    boolean had = index.put(key, value, OPERATION_TIMEOUT);
                    LatencyHistograms.record(counts.update, ThreadTime.nanoTime() - s);
                    counts.updates++;
                    counts.replaced += had ? 1 : 0;
                }
            }
            counts.finishedAt = ThreadTime.nanoTime();
            counts.attempts = index.attempts() - attempts;
            counts.notLeader = index.notLeaderAnswers() - notLeader;
            counts.retry = index.retryAnswers() - retry;
            clients[client] = counts;
            done.incrementAndGet();
        }

        /** {@return key {@code k}'s bytes: the long, big-endian} */
        static byte[] key(long k) {
            byte[] b = new byte[IndexBenchmarkConfig.KEY_BYTES];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (k >>> (56 - 8 * i));
            }
            return b;
        }

        private Thread start(String name, Runnable body) {
            Thread t = ThreadTime.newThread(name, () -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    fail(e);
                }
            });
            t.setDaemon(true);
            t.start();
            return t;
        }

        private void fail(Throwable e) {
            failure.compareAndSet(null, e);
            stop.set(true);
        }

        private void await(AtomicInteger counter, int count, String what) {
            await(counter, count, what, START_BOUND);
        }

        private void await(AtomicInteger counter, int count, String what, Duration bound) {
            long deadline = ThreadTime.nanoTime() + bound.toNanos();
            while (counter.get() < count) {
                rethrow();
                if (stop.get()) {
                    throw new RemusException("the index benchmark stopped while waiting: " + counter.get() + " of "
                            + count + " " + what);
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException(counter.get() + " of " + count + " " + what + " within " + bound);
                }
                ThreadTime.parkNanos(counter, CHECK_NANOS);
            }
        }

        private void joinAll(List<Thread> threads) throws InterruptedException {
            for (Thread t : threads) {
                if (!ThreadTime.join(t, START_BOUND.toNanos())) {
                    failure.compareAndSet(null, new RemoteTimeoutException(t.getName() + " did not stop within "
                            + START_BOUND));
                }
            }
            threads.clear();
        }

        private void rethrow() {
            Throwable e = failure.get();
            if (e instanceof RuntimeException r) {
                throw r;
            }
            if (e instanceof Error err) {
                throw err;
            }
            if (e != null) {
                throw new RemusException("an index benchmark thread failed: " + e, e);
            }
        }

        private void close() {
            for (RpcEndpoint e : endpoints) {
                if (e != null) {
                    e.close();
                }
            }
            for (RemusNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }
}
