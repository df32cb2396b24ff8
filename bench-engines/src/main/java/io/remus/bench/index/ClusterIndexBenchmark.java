package io.remus.bench.index;

import io.remus.core.fabric.Plane;
import io.remus.bench.engines.ClusterRounds;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.KeyChooser;
import io.remus.bench.structure.OpType;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.ds.index.IndexShardServer;
import io.remus.ds.index.IndexShards;
import io.remus.ds.index.RemusIndex;
import io.remus.ds.replicate.ReplicaGroup;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;

/**
 * The index benchmark as one process per node: every process of a joined {@link RemusCluster} (one node each, every
 * node a memory and a compute node) makes one instance and calls {@link #run} once, with the same configuration. The
 * workload is {@link IndexBenchmark}'s (YCSB A, B or C with zipfian keys over loaded 8-byte keys), the layout is one
 * of processes: each node is a replica of some shards and a client.
 *
 * <p><b>Layout</b> ({@link #shards}): shard {@code s} of {@code S} is replicated on the {@code R} nodes
 * {@code s, s+1, ..., s+R-1} (mod the cluster's size {@code N}, which must be at least {@code R}), and its first
 * member, node {@code s mod N}, leads it with term 1 for the whole run, with fail-over off, so a leader's death ends
 * the run. No member switches its permissions ({@link IndexShardServer#grantWriteTo}, Mu's permission switch:
 * Aguilera et al., "Microsecond Consensus for Microsecond Applications", OSDI 2020): with the leader fixed it guards
 * nothing, and it acts on a whole node, so a member's switch would refuse every other member's WRITEs to the node,
 * those of their RPC calls and of the run's coordination included; every peer keeps the write access it starts with. Every node runs one client ({@link RemusIndex}, client id {@code 1 + node})
 * on its endpoint ({@link RemusCluster#openRpcEndpoint}); a node has one endpoint, served by one thread, so that thread
 * is the node's client and its servers at once: a client's call serves the requests that arrive meanwhile, and
 * between operations and phases the thread serves ({@link IndexShardServer#runOnce}).
 *
 * <p><b>A run</b> is one of the cluster's {@link ClusterRounds}: node 0 publishes it with a phase counter (one word
 * on node 0), each node creates its servers and marks itself ready ({@link ClusterRounds.Round#ready}); then the
 * nodes pass four phases, each ended by a fetch-and-add of the counter and a wait, serving, until every node added:
 * the leaders lead; every client loads its keys ({@code k mod N == node}); every leader reads its server thread's
 * counters; every client runs {@code opsPerClient} operations (drawn as {@code IndexBenchmark} draws client
 * {@code node}'s), each timed at the client. Then each leader reads its counters again, each node sends node 0 its
 * counts and latency histograms ({@link ClusterRounds.Round#publishResult}), and node 0 adds them up.
 *
 * <p>Every wait is bounded: each phase by the peer timeout, each operation by the peer timeout too, each attempt by
 * {@link #ATTEMPT_TIMEOUT}, a leader's commit by {@link #COMMIT_TIMEOUT}, the results by the peer timeout. A process
 * runs one index (its shards' RPC method ids are fixed, {@link IndexShards#methodId}), so {@link #run} is called once.
 * Not thread-safe: the calling thread must be the one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterIndexBenchmark {
    /** How long a leader waits for a majority per request before answering RETRY. */
    public static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a client's attempt waits for an answer before it tries the next member: longer than a commit. */
    public static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    /** Slots per RPC ring. */
    public static final int RING_SLOTS = 8;
    /** The index's name: its shards' logs are {@code cluster-index-s}. */
    static final String NAME = "cluster-index";
    private static final long TERM = 1;
    /** Result words per node before its posted counts: elapsed, then ten counts. */
    private static final int WORDS = 11;
    private static final Duration SERVE = Duration.ofMillis(1);

    private final ClusterRounds rounds;
    private boolean ran;

    /**
     * The benchmark on this process's node of {@code cluster}.
     *
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of the run, and for each operation (see
     *                    {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterIndexBenchmark(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "index benchmark");
    }

    /**
     * The shard map of a run on {@code nodes} nodes: shard {@code s} on nodes {@code s..s+replicas-1} mod
     * {@code nodes}, its first member leading.
     *
     * @param config the run
     * @param nodes  the cluster's size, at least {@code config.replicas()}
     * @return the shard map
     * @throws BadArgumentException naming both when the cluster has fewer nodes than a group has members
     */
    public static IndexShards shards(IndexBenchmarkConfig config, int nodes) {
        if (nodes < config.replicas()) {
            throw new BadArgumentException("--replicas " + config.replicas() + " needs at least as many nodes, but the "
                    + "cluster has " + nodes);
        }
        ReplicaGroup[] groups = new ReplicaGroup[config.shards()];
        for (int s = 0; s < groups.length; s++) {
            int[] members = new int[config.replicas()];
            for (int k = 0; k < members.length; k++) {
                members[k] = (s + k) % nodes;
            }
            groups[s] = ReplicaGroup.of(members);
        }
        return IndexShards.of(NAME, groups);
    }

    /**
     * {@return the memory a node of a run on {@code nodes} nodes needs: room for the logs of the shards it is a member
     *          of, four times over, and at least 8 MiB}
     *
     * @param config the run
     * @param nodes  the cluster's size
     */
    public static long segmentBytes(IndexBenchmarkConfig config, int nodes) {
        long logsPerNode = ((long) config.shards() * config.replicas() + nodes - 1) / nodes;
        return Math.max(8L << 20, 4 * logsPerNode * config.logBytes());
    }

    /**
     * Runs the index on this node, together with the other nodes.
     *
     * @param config the run; {@code clients} must be the cluster's size (one client per node), and every node must
     *               pass the same
     * @return on node 0 every node's measurements added up; on the other nodes their own
     * @throws BadArgumentException   when the configuration's client count is not the cluster's size, a group has more
     *                                members than the cluster has nodes, this node's configuration differs from node
     *                                0's, or this instance ran before
     * @throws RemoteTimeoutException naming the nodes that did not reach a step in time
     * @throws RemusException         when a server or client of this node failed
     */
    public ClusterIndexBenchmarkResult run(IndexBenchmarkConfig config) {
        Objects.requireNonNull(config, "config");
        int self = rounds.nodeId();
        int n = rounds.size();
        if (config.clients() != n) {
            throw new BadArgumentException("the index benchmark with one process per node runs one client per node: "
                    + "clients must be the cluster's " + n + " nodes, got " + config.clients());
        }
        IndexShards shards = shards(config, n);
        if (ran) {
            throw new BadArgumentException("node " + self + ": a process runs the index benchmark once (its shards' "
                    + "RPC methods stay registered on the node's endpoint)");
        }
        ran = true;
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        RpcEndpoint endpoint = cluster.openRpcEndpoint(RING_SLOTS);
        ClusterRounds.Round round;
        long counter;
        if (self == 0) {
            counter = main.allocator().allocate(Long.BYTES);
            main.write(counter, 0L);
            round = rounds.publish(configWords(config), counter);
        } else {
            round = rounds.await(configWords(config), "phase counter", ClusterIndexBenchmark::describe);
            counter = round.payload();
        }
        Node node = new Node(config, shards, main, endpoint, counter, n, self, rounds.peerTimeout());
        try (ComputeThread serverThread = cluster.newComputeThread(Plane.REPLICATION)) {
            try {
                node.createServers(cluster, serverThread);
            } catch (RuntimeException e) {
                round.markFailed();
                node.closeServers();
                throw e;
            }
            byte[] mine;
            try {
                round.ready(rounds.peerTimeout());
                mine = node.run(serverThread);
            } finally {
                node.closeServers();
            }
            round.publishResult(mine);
            List<byte[]> all = self == 0 ? round.collect(rounds.peerTimeout()) : List.of(mine);
            return decode(config, all);
        }
    }

    /** One node's servers, client and counts. */
    private static final class Node {
        private final IndexBenchmarkConfig config;
        private final IndexShards shards;
        private final ComputeThread main;
        private final RpcEndpoint endpoint;
        private final long counter;
        private final int nodes;
        private final int self;
        private final Duration peerTimeout;
        private final List<IndexShardServer> servers = new ArrayList<>();
        private final List<IndexShardServer> led = new ArrayList<>();
        private final long[] posted = new long[Opcode.values().length];
        private long roundTrips;
        private long bytesWritten;
        private long appends;

        Node(IndexBenchmarkConfig config, IndexShards shards, ComputeThread main, RpcEndpoint endpoint, long counter,
             int nodes, int self, Duration peerTimeout) {
            this.config = config;
            this.shards = shards;
            this.main = main;
            this.endpoint = endpoint;
            this.counter = counter;
            this.nodes = nodes;
            this.self = self;
            this.peerTimeout = peerTimeout;
        }

        void createServers(RemusCluster cluster, ComputeThread serverThread) {
            for (int s = 0; s < shards.count(); s++) {
                ReplicaGroup group = shards.group(s);
                if (group.indexOf(self) >= 0) {
                    IndexShardServer server = IndexShardServer.create(cluster.node(), serverThread, endpoint, shards, s,
                            config.logSlots(), COMMIT_TIMEOUT);
                    servers.add(server);
                    if (group.member(0) == self) {
                        led.add(server);
                    }
                }
            }
        }

        void closeServers() {
            for (IndexShardServer server : servers) {
                server.close();
            }
        }

        /** The four phases; returns this node's result bytes. */
        byte[] run(ComputeThread serverThread) {
            for (IndexShardServer server : led) {
                server.lead(TERM, peerTimeout);
            }
            phase(1, "lead their shards");
            RemusIndex index = new RemusIndex(endpoint, shards, 1 + self, ATTEMPT_TIMEOUT);
            byte[] value = new byte[config.valueBytes()];
            for (long k = self; k < config.keys(); k += nodes) {
                value[0] = (byte) k;
                index.put(IndexBenchmark.key(k), value, peerTimeout);
            }
            phase(2, "load their keys");
            count(serverThread, -1);
            phase(3, "read their counters");
            long attempts = index.attempts();
            long notLeader = index.notLeaderAnswers();
            long retry = index.retryAnswers();
            Histogram read = LatencyHistograms.create();
            Histogram update = LatencyHistograms.create();
            long reads = 0;
            long found = 0;
            long updates = 0;
            long replaced = 0;
            KeyChooser keys = new KeyChooser(new SplittableRandom(config.seed() * 1_000_003L + self), 0, config.keys(),
                    config.effectiveTheta(), KeyChooser.zeta(config.keys(), config.effectiveTheta()));
            long begin = System.nanoTime();
            for (long i = 0; i < config.opsPerClient(); i++) {
                OpType op = config.ycsb().operation(keys.percent());
                long k = keys.next();
                byte[] key = IndexBenchmark.key(k);
                if (op == OpType.LOOKUP) {
                    long s = System.nanoTime();
                    boolean hit = index.get(key, peerTimeout) != null;
                    LatencyHistograms.record(read, System.nanoTime() - s);
                    reads++;
                    found += hit ? 1 : 0;
                } else {
                    value[0] = (byte) k;
                    long s = System.nanoTime();
                    boolean had = index.put(key, value, peerTimeout);
                    LatencyHistograms.record(update, System.nanoTime() - s);
                    updates++;
                    replaced += had ? 1 : 0;
                }
                serveFollowers();
            }
            long elapsed = System.nanoTime() - begin;
            phase(4, "finish their operations");
            count(serverThread, 1);
            byte[] histograms = LatencyHistograms.compress(read);
            byte[] updateHistograms = LatencyHistograms.compress(update);
            ByteBuffer b = ByteBuffer.allocate(Long.BYTES * (WORDS + posted.length) + 2 * Integer.BYTES
                    + histograms.length + updateHistograms.length);
            b.putLong(elapsed).putLong(reads).putLong(found).putLong(updates).putLong(replaced)
                    .putLong(index.attempts() - attempts).putLong(index.notLeaderAnswers() - notLeader)
                    .putLong(index.retryAnswers() - retry).putLong(roundTrips).putLong(bytesWritten).putLong(appends);
            for (long p : posted) {
                b.putLong(p);
            }
            b.putInt(histograms.length).put(histograms).putInt(updateHistograms.length).put(updateHistograms);
            return b.array();
        }

        /** Adds ({@code sign} 1) or takes away ({@code sign} -1) the led servers' thread's counts. */
        private void count(ComputeThread serverThread, int sign) {
            if (led.isEmpty()) {
                return;
            }
            for (Opcode op : Opcode.values()) {
                posted[op.ordinal()] += sign * serverThread.postedOperations(op);
            }
            roundTrips += sign * serverThread.roundTrips();
            bytesWritten += sign * serverThread.bytesWritten();
            for (IndexShardServer server : led) {
                appends += sign * server.appends();
            }
        }

        /** Lets the followers apply what is committed, and serves what already arrived. */
        private void serveFollowers() {
            for (IndexShardServer server : servers) {
                server.runOnce(Duration.ZERO);
            }
        }

        /** Counts this node into phase {@code phase} and serves until every node has. */
        private void phase(int phase, String what) {
            main.fetchAndAdd(counter, 1);
            long target = (long) phase * nodes;
            long deadline = System.nanoTime() + peerTimeout.toNanos();
            long arrived;
            while ((arrived = main.read(counter)) < target) {
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node " + self + ": " + (arrived - target + nodes) + " of " + nodes
                            + " nodes of the index benchmark did " + what + " within " + peerTimeout);
                }
                if (servers.isEmpty()) {
                    endpoint.serve(SERVE);
                } else {
                    servers.getFirst().runOnce(SERVE);
                    for (int i = 1; i < servers.size(); i++) {
                        servers.get(i).runOnce(Duration.ZERO);
                    }
                }
            }
        }
    }

    private static ClusterIndexBenchmarkResult decode(IndexBenchmarkConfig config, List<byte[]> all) {
        long[] w = new long[WORDS];
        long[] posted = new long[Opcode.values().length];
        Histogram read = LatencyHistograms.create();
        Histogram update = LatencyHistograms.create();
        for (byte[] bytes : all) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            w[0] = Math.max(w[0], b.getLong());
            for (int i = 1; i < WORDS; i++) {
                w[i] += b.getLong();
            }
            for (int i = 0; i < posted.length; i++) {
                posted[i] += b.getLong();
            }
            try {
                read.add(LatencyHistograms.decompress(slice(b)));
                update.add(LatencyHistograms.decompress(slice(b)));
            } catch (DataFormatException e) {
                throw new RemusException("a node's index benchmark result holds no latency histogram: " + e, e);
            }
        }
        Histogram both = LatencyHistograms.create();
        both.add(read);
        both.add(update);
        return new ClusterIndexBenchmarkResult(config, w[0], w[1], w[2], w[3], w[4], LatencySummary.of(read),
                LatencySummary.of(update), LatencySummary.of(both), posted, w[8], w[9], w[10], w[5], w[6], w[7]);
    }

    private static byte[] slice(ByteBuffer b) {
        byte[] bytes = new byte[b.getInt()];
        b.get(bytes);
        return bytes;
    }

    private static long[] configWords(IndexBenchmarkConfig c) {
        return new long[]{c.shards(), c.replicas(), c.clients(), c.ycsb().ordinal(), Double.doubleToLongBits(c.zipfTheta()),
                c.keys(), c.valueBytes(), c.opsPerClient(), c.logSlots(), c.seed()};
    }

    private static String describe(long[] w) {
        return "shards " + w[0] + ", replicas " + w[1] + ", clients " + w[2] + ", ycsb ordinal " + w[3] + ", zipf "
                + Double.longBitsToDouble(w[4]) + ", keys " + w[5] + ", value bytes " + w[6] + ", ops per client " + w[7]
                + ", log slots " + w[8] + ", seed " + w[9];
    }
}
