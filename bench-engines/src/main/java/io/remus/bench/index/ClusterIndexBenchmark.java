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
import io.remus.core.memory.RemotePtr;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.ds.index.IndexShardServer;
import io.remus.ds.index.IndexShards;
import io.remus.ds.index.RemusIndex;
import io.remus.ds.replicate.ReplicaGroup;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.zip.DataFormatException;

/**
 * The index benchmark as one process per node: every process of a joined {@link RemusCluster} (one node each, every
 * node a memory and a compute node) makes one instance and calls {@link #run} once, with the same configuration. The
 * workload is {@link IndexBenchmark}'s (YCSB A, B or C with zipfian keys over loaded 8-byte keys), the layout is one
 * of processes: each node is a replica of some shards and a client.
 *
 * <p><b>Layout</b> ({@link #shards}): shard {@code s} of {@code S} is replicated on the {@code R} nodes
 * {@code s, s+1, ..., s+R-1} (mod the cluster's size {@code N}, which must be at least {@code R}), listed in
 * ascending order, and replicates on plane {@code Plane.REPLICATION + s} ({@link ReplicaGroup#onPlane}), so that
 * a node holds at most one group per plane ({@code S} at most {@value #MAX_SHARDS}).
 *
 * <p><b>Fail-over is on</b> (Mu's leader election and change: Aguilera et al., "Microsecond Consensus for
 * Microsecond Applications", OSDI 2020). Every member's server turns it on ({@link IndexShardServer#enableFailover},
 * its {@link io.remus.ds.replicate.LogLeader} on a compute thread of the group's plane, its agent polled by the
 * server's own thread, {@value #SUSPECT_AFTER} unchanged heartbeats before a member is suspected): nobody appoints a
 * leader, each group's lowest live node takes its shard over at its first polls, which grants it the group's write
 * access on that plane alone (RPC and the run's coordination stay on plane 0), and each client's first guess is that
 * node. When a leader's process dies, its groups' survivors suspect it, elect the next lowest, which recovers the log
 * from a majority and serves; the clients find it by themselves ({@link RemusIndex}). A node's one thread is its
 * client and its servers at once, and an agent beats only when its thread polls, so no call blocks a thread long:
 * each attempt waits at most {@link #ATTEMPT_TIMEOUT}, each try of an operation at most {@link #OPERATION_SLICE},
 * after which the node serves and polls and sends the operation again under a new sequence (a put sends the same
 * value, so the key ends the same). Every node runs one client ({@link RemusIndex}, client id {@code 1 + node}) on
 * its endpoint ({@link RemusCluster#openRpcEndpoint}); a client's call serves the requests that arrive meanwhile,
 * and between operations and phases the thread serves and polls ({@link IndexShardServer#runOnce}, at most one poll
 * per {@value #POLL_MICROS} us).
 *
 * <p><b>A run</b> is one of the cluster's {@link ClusterRounds}: node 0 publishes it with a block of phase words
 * (a counter and one done-word per node, on node 0), each node creates its servers and marks itself ready
 * ({@link ClusterRounds.Round#ready}), turns fail-over on and waits until it leads the shards it is the lowest
 * member of; then the nodes pass four phases, each ended by a fetch-and-add and a wait, serving, until every node
 * added: the leaders lead; every client loads its keys ({@code k mod N == node}); every node reads its leader
 * threads' counters; every client runs {@code opsPerClient} operations (drawn as {@code IndexBenchmark} draws client
 * {@code node}'s), each timed at the client. The last phase's wait passes a node that did not mark its done-word
 * when one of this node's agents suspects it (its process died mid-run): the run goes on without it. Then each
 * node reads its counters again, sends node 0 its counts and latency histograms
 * ({@link ClusterRounds.Round#publishResult}), and node 0 adds up those of the nodes it did not find gone and names
 * the others ({@link ClusterIndexBenchmarkResult.Failover#absentNodes}).
 *
 * <p><b>Counts.</b> The RDMA counts are the leader threads' (every append, commit flush, takeover and catch-up);
 * the agents' heartbeat READs, on the servers' own threads, are left out. Between the load and the first counter
 * read every server polls {@value #SETTLE_POLLS} times, so that a leader has caught up the followers its takeover
 * left behind before the count starts. A run where nothing fails thus costs what a fixed leader does (with 3
 * replicas: 1 append, 4 WRITEs, 2 leader round trips and 1 RPC per operation); a leader change adds its takeover,
 * recovery and catch-up to the counts, and the clients' unanswered attempts to the latencies.
 *
 * <p>Every wait is bounded: each phase by the peer timeout, each operation by the peer timeout too, each attempt by
 * {@link #ATTEMPT_TIMEOUT}, a leader's commit by {@link #COMMIT_TIMEOUT}, a takeover by {@link #TAKEOVER_TIMEOUT},
 * the results by the peer timeout. A process runs one index (its shards' RPC method ids are fixed,
 * {@link IndexShards#methodId}), so {@link #run} is called once. Not thread-safe: the calling thread must be the
 * one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterIndexBenchmark {
    /** How long a leader waits for a majority per request before answering RETRY. */
    public static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long a client's attempt waits for an answer before it tries the next member: short, since the node's
     * thread neither beats nor polls its agents while it waits (see the class comment); a commit slower than this
     * costs another attempt, which the leader answers from its session table or appends again as a duplicate.
     */
    public static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(100);
    /** How long one try of an operation waits for a leader before the node serves, polls and sends it again. */
    public static final Duration OPERATION_SLICE = Duration.ofMillis(200);
    /**
     * Heartbeat READs in a row without change before an agent suspects a member: at the fastest polls, one per
     * {@value #POLL_MICROS} us, 0.8 s, four times a live node's longest gap between polls (a try of
     * {@link #OPERATION_SLICE}); a node whose tries all go to a dead leader polls {@value #POLLS_AFTER_TRY} times
     * after each, so its agents suspect the dead one within about {@code SUSPECT_AFTER / POLLS_AFTER_TRY} tries.
     */
    public static final int SUSPECT_AFTER = 400;
    /** How long a takeover may wait for promises, and the pause before a failed one is tried again. */
    public static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(5);
    /** The most shards with one process per node: one replication plane each. */
    public static final int MAX_SHARDS = Plane.COUNT - Plane.REPLICATION;
    /** Slots per RPC ring. */
    public static final int RING_SLOTS = 8;
    /** The shortest time between two polls of a node's agents. */
    public static final long POLL_MICROS = 2000;
    /** Polls a node makes, serving, after a try of an operation that no leader answered. */
    public static final int POLLS_AFTER_TRY = 10;
    /** Polls of each server between the load and the counters: more than a leader's 32 between catch-ups. */
    public static final int SETTLE_POLLS = 33;
    /** The index's name: its shards' logs are {@code cluster-index-s}. */
    static final String NAME = "cluster-index";
    /** Result words per node before its posted counts: elapsed, then ten counts. */
    private static final int WORDS = 11;
    /** Result words per node after its histograms: takeovers, recovered, term, longest disrupted, retried, caught up. */
    private static final int FAILOVER_WORDS = 6;
    private static final Duration SERVE = Duration.ofMillis(1);

    private final ClusterRounds rounds;
    private boolean ran;
    /** Test hook: runs on the calling thread once every node read its counters, right before the measured operations. */
    Runnable onMeasuring = () -> { };

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
     * {@code nodes}, in ascending order (the lowest leads), on plane {@code Plane.REPLICATION + s}.
     *
     * @param config the run
     * @param nodes  the cluster's size, at least {@code config.replicas()}
     * @return the shard map
     * @throws BadArgumentException naming both when the cluster has fewer nodes than a group has members; naming the
     *                              shards when there are more than {@value #MAX_SHARDS}
     */
    public static IndexShards shards(IndexBenchmarkConfig config, int nodes) {
        if (nodes < config.replicas()) {
            throw new BadArgumentException("--replicas " + config.replicas() + " needs at least as many nodes, but the "
                    + "cluster has " + nodes);
        }
        if (config.shards() > MAX_SHARDS) {
            throw new BadArgumentException("--shards " + config.shards() + ": one process per node runs at most "
                    + MAX_SHARDS + " shards, one replication plane each (planes " + Plane.REPLICATION + ".."
                    + (Plane.COUNT - 1) + ")");
        }
        ReplicaGroup[] groups = new ReplicaGroup[config.shards()];
        for (int s = 0; s < groups.length; s++) {
            int[] members = new int[config.replicas()];
            for (int k = 0; k < members.length; k++) {
                members[k] = (s + k) % nodes;
            }
            Arrays.sort(members);
            groups[s] = ReplicaGroup.of(members).onPlane(Plane.REPLICATION + s);
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
     * @return on node 0 the measurements of every node that finished added up, naming those that did not; on the
     *         other nodes their own
     * @throws BadArgumentException   when the configuration's client count is not the cluster's size, a group has more
     *                                members than the cluster has nodes, there are more than {@value #MAX_SHARDS}
     *                                shards, this node's configuration differs from node 0's, or this instance ran
     *                                before
     * @throws RemoteTimeoutException naming the nodes that did not reach a step in time, or the shard whose leader
     *                                did not answer an operation within the peer timeout
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
        long block;
        if (self == 0) {
            block = main.allocator().allocate((1L + n) * Long.BYTES);
            for (int w = 0; w <= n; w++) {
                main.write(RemotePtr.offset(block, (long) w * Long.BYTES), 0L);
            }
            round = rounds.publish(configWords(config), block);
        } else {
            round = rounds.await(configWords(config), "phase words", ClusterIndexBenchmark::describe);
            block = round.payload();
        }
        Node node = new Node(config, shards, main, endpoint, block, n, self, rounds.peerTimeout(), onMeasuring);
        byte[] mine;
        try {
            try {
                node.createServers(cluster);
            } catch (RuntimeException e) {
                round.markFailed();
                throw e;
            }
            round.ready(rounds.peerTimeout());
            mine = node.run();
        } finally {
            node.close();
        }
        round.publishResult(mine);
        if (self != 0) {
            return decode(config, List.of(mine), List.of());
        }
        List<Integer> absent = node.gone();
        return decode(config, round.collect(rounds.peerTimeout(), absent), absent);
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
        private final Runnable onMeasuring;
        private final List<IndexShardServer> servers = new ArrayList<>();
        private final List<ComputeThread> serverThreads = new ArrayList<>();
        private final List<ComputeThread> leaderThreads = new ArrayList<>();
        private final List<Integer> gone = new ArrayList<>();
        private final long[] posted = new long[Opcode.values().length];
        private long roundTrips;
        private long bytesWritten;
        private long appends;
        private long takeovers;
        private long recovered;
        private long caughtUp;
        private long lastPoll;
        private long retriedOps;

        Node(IndexBenchmarkConfig config, IndexShards shards, ComputeThread main, RpcEndpoint endpoint, long counter,
             int nodes, int self, Duration peerTimeout, Runnable onMeasuring) {
            this.config = config;
            this.shards = shards;
            this.main = main;
            this.endpoint = endpoint;
            this.counter = counter;
            this.nodes = nodes;
            this.self = self;
            this.peerTimeout = peerTimeout;
            this.onMeasuring = onMeasuring;
        }

        /** Per shard this node holds a replica of: its server, on a compute thread of its own, and a leader thread. */
        void createServers(RemusCluster cluster) {
            for (int s = 0; s < shards.count(); s++) {
                ReplicaGroup group = shards.group(s);
                if (group.indexOf(self) >= 0) {
                    ComputeThread t = cluster.newComputeThread();
                    serverThreads.add(t);
                    ComputeThread lt = cluster.newComputeThread(group.plane());
                    leaderThreads.add(lt);
                    servers.add(IndexShardServer.create(cluster.node(), t, endpoint, shards, s, config.logSlots(),
                            COMMIT_TIMEOUT));
                }
            }
        }

        /** Closes the servers, then their compute threads. */
        void close() {
            RuntimeException first = null;
            for (IndexShardServer server : servers) {
                server.close();
            }
            for (ComputeThread t : leaderThreads) {
                first = closeQuietly(t, first);
            }
            for (ComputeThread t : serverThreads) {
                first = closeQuietly(t, first);
            }
            if (first != null) {
                throw first;
            }
        }

        private static RuntimeException closeQuietly(ComputeThread t, RuntimeException first) {
            try {
                t.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    return e;
                }
                first.addSuppressed(e);
            }
            return first;
        }

        /** {@return the nodes this node passed at the last phase without their done-word: gone} */
        List<Integer> gone() {
            return List.copyOf(gone);
        }

        /** Fail-over on, the first leaders, then the four phases; returns this node's result bytes. */
        byte[] run() {
            for (int i = 0; i < servers.size(); i++) {
                servers.get(i).enableFailover(leaderThreads.get(i), SUSPECT_AFTER, TAKEOVER_TIMEOUT);
            }
            awaitFirstLeaders();
            phase(1, "lead their shards");
            RemusIndex index = new RemusIndex(endpoint, shards, 1 + self, ATTEMPT_TIMEOUT);
            byte[] value = new byte[config.valueBytes()];
            for (long k = self; k < config.keys(); k += nodes) {
                value[0] = (byte) k;
                byte[] key = IndexBenchmark.key(k);
                retrying(() -> index.put(key, value, OPERATION_SLICE), key);
            }
            phase(2, "load their keys");
            settle();
            count(-1);
            phase(3, "read their counters");
            onMeasuring.run();
            long attempts = index.attempts();
            long notLeader = index.notLeaderAnswers();
            long retry = index.retryAnswers();
            long retried = retriedOps;
            long longestDisrupted = 0;
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
                long failed = index.failedAttempts();
                long s = System.nanoTime();
                if (op == OpType.LOOKUP) {
                    boolean hit = retrying(() -> index.get(key, OPERATION_SLICE) != null, key);
                    LatencyHistograms.record(read, System.nanoTime() - s);
                    reads++;
                    found += hit ? 1 : 0;
                } else {
                    value[0] = (byte) k;
                    boolean had = retrying(() -> index.put(key, value, OPERATION_SLICE), key);
                    LatencyHistograms.record(update, System.nanoTime() - s);
                    updates++;
                    replaced += had ? 1 : 0;
                }
                if (index.failedAttempts() != failed) {
                    longestDisrupted = Math.max(longestDisrupted, System.nanoTime() - s);
                }
                serve(Duration.ZERO);
            }
            long elapsed = System.nanoTime() - begin;
            finish();
            count(1);
            long term = 0;
            for (IndexShardServer server : servers) {
                term = Math.max(term, server.term());
            }
            byte[] histograms = LatencyHistograms.compress(read);
            byte[] updateHistograms = LatencyHistograms.compress(update);
            ByteBuffer b = ByteBuffer.allocate(Long.BYTES * (WORDS + posted.length + FAILOVER_WORDS)
                    + 2 * Integer.BYTES + histograms.length + updateHistograms.length);
            b.putLong(elapsed).putLong(reads).putLong(found).putLong(updates).putLong(replaced)
                    .putLong(index.attempts() - attempts).putLong(index.notLeaderAnswers() - notLeader)
                    .putLong(index.retryAnswers() - retry).putLong(roundTrips).putLong(bytesWritten).putLong(appends);
            for (long p : posted) {
                b.putLong(p);
            }
            b.putInt(histograms.length).put(histograms).putInt(updateHistograms.length).put(updateHistograms);
            b.putLong(takeovers).putLong(recovered).putLong(term).putLong(longestDisrupted)
                    .putLong(retriedOps - retried).putLong(caughtUp);
            return b.array();
        }

        /**
         * Runs one operation, a try at a time ({@link #OPERATION_SLICE} each), serving and polling between tries,
         * until a leader answers or the peer timeout passes.
         */
        private <T> T retrying(Supplier<T> operation, byte[] key) {
            long deadline = System.nanoTime() + peerTimeout.toNanos();
            while (true) {
                try {
                    return operation.get();
                } catch (RemoteTimeoutException e) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new RemoteTimeoutException("node " + self + ": no leader of shard " + shards.shardOf(key)
                                + " " + shards.group(shards.shardOf(key)) + " answered an operation within "
                                + peerTimeout + ": " + e.getMessage());
                    }
                    retriedOps++;
                    long until = System.nanoTime() + POLLS_AFTER_TRY * POLL_MICROS * 1000;
                    while (System.nanoTime() - until < 0) {
                        serve(Duration.ofNanos(POLL_MICROS * 1000));
                    }
                }
            }
        }

        /**
         * Polls every server {@value #SETTLE_POLLS} times in a row, so that each leader has caught up and attached
         * again the followers left detached by its takeover or the load ({@link IndexShardServer#caughtUpFollowers},
         * once per 32 polls) before the counters are read: a run where nothing fails counts no catch-up.
         */
        private void settle() {
            for (int i = 0; i < SETTLE_POLLS; i++) {
                for (IndexShardServer server : servers) {
                    server.runOnce(Duration.ZERO);
                }
            }
            lastPoll = System.nanoTime();
        }

        /** Waits, serving, until this node leads every shard whose group's lowest member it is. */
        private void awaitFirstLeaders() {
            long deadline = System.nanoTime() + peerTimeout.toNanos();
            while (true) {
                List<Integer> waiting = new ArrayList<>();
                for (IndexShardServer server : servers) {
                    if (shards.group(server.shard()).member(0) == self && !server.isLeader()) {
                        waiting.add(server.shard());
                    }
                }
                if (waiting.isEmpty()) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node " + self + ": did not take shard(s) " + waiting + " over "
                            + "within " + peerTimeout + " (takeovers failed: " + failedTakeovers() + ")");
                }
                serve(SERVE);
            }
        }

        private long failedTakeovers() {
            long failed = 0;
            for (IndexShardServer server : servers) {
                failed += server.failedTakeovers();
            }
            return failed;
        }

        /** Adds ({@code sign} 1) or takes away ({@code sign} -1) the leader threads' and servers' counts. */
        private void count(int sign) {
            for (ComputeThread t : leaderThreads) {
                for (Opcode op : Opcode.values()) {
                    posted[op.ordinal()] += sign * t.postedOperations(op);
                }
                roundTrips += sign * t.roundTrips();
                bytesWritten += sign * t.bytesWritten();
            }
            for (IndexShardServer server : servers) {
                appends += sign * server.appends();
                takeovers += sign * server.takeovers();
                recovered += sign * server.recoveredEntries();
                caughtUp += sign * server.caughtUpFollowers();
            }
        }

        /**
         * Serves what arrives within {@code wait}; polls the agents, applies committed entries and serves through
         * the servers ({@link IndexShardServer#runOnce}) when the last poll is {@value #POLL_MICROS} us old.
         */
        private void serve(Duration wait) {
            long now = System.nanoTime();
            if (servers.isEmpty() || now - lastPoll < POLL_MICROS * 1000) {
                endpoint.serve(wait);
                return;
            }
            lastPoll = now;
            servers.getFirst().runOnce(wait);
            for (int i = 1; i < servers.size(); i++) {
                servers.get(i).runOnce(Duration.ZERO);
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
                serve(SERVE);
            }
        }

        /**
         * Marks this node's done-word and serves until every node has marked its own or is suspected by one of this
         * node's agents (it died mid-run); remembers those as gone.
         */
        private void finish() {
            main.fetchAndAdd(doneWord(self), 1);
            long deadline = System.nanoTime() + peerTimeout.toNanos();
            List<Integer> waiting = new ArrayList<>();
            for (int k = 0; k < nodes; k++) {
                waiting.add(k);
            }
            while (true) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    if (main.read(doneWord(it.next())) != 0) {
                        it.remove();
                    }
                }
                List<Integer> suspected = waiting.stream().filter(this::suspected).toList();
                if (suspected.size() == waiting.size()) {
                    gone.addAll(suspected);
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node " + self + ": node(s) " + waiting + " of " + nodes
                            + " did not finish their operations of the index benchmark within " + peerTimeout
                            + (suspected.isEmpty() ? "" : " (suspected dead: " + suspected + ")"));
                }
                serve(SERVE);
            }
        }

        private boolean suspected(int node) {
            for (IndexShardServer server : servers) {
                if (shards.group(server.shard()).indexOf(node) >= 0 && server.agent().isSuspected(node)) {
                    return true;
                }
            }
            return false;
        }

        private long doneWord(int node) {
            return RemotePtr.offset(counter, (1L + node) * Long.BYTES);
        }
    }

    private static ClusterIndexBenchmarkResult decode(IndexBenchmarkConfig config, List<byte[]> all,
                                                      List<Integer> absent) {
        long[] w = new long[WORDS];
        long[] posted = new long[Opcode.values().length];
        long[] f = new long[FAILOVER_WORDS];
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
            f[0] += b.getLong();
            f[1] += b.getLong();
            f[2] = Math.max(f[2], b.getLong());
            f[3] = Math.max(f[3], b.getLong());
            f[4] += b.getLong();
            f[5] += b.getLong();
        }
        Histogram both = LatencyHistograms.create();
        both.add(read);
        both.add(update);
        return new ClusterIndexBenchmarkResult(config, w[0], w[1], w[2], w[3], w[4], LatencySummary.of(read),
                LatencySummary.of(update), LatencySummary.of(both), posted, w[8], w[9], w[10], w[5], w[6], w[7],
                new ClusterIndexBenchmarkResult.Failover(f[0], f[2], f[1], f[5], f[3], f[4], absent));
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
