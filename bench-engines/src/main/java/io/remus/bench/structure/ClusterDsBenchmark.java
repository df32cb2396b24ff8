package io.remus.bench.structure;

import io.remus.alock.LockOptions;
import io.remus.bench.engines.ClusterResults;
import io.remus.bench.engines.ClusterRounds;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.NeverReclaimer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The set and map benchmark as one process per node: every process of a joined {@link RemusCluster}
 * (one node each, every node a memory and a compute node) makes one instance and calls {@link #run} with
 * the same configurations in the same order. Each run is one of the cluster's {@link ClusterRounds}: node
 * 0 creates the structure and publishes its pointer with the configuration (in YCSB D the pointer of the
 * cluster's key generator beside it, which names the structure: one READ per node at the start); every worker node prefills
 * its share and runs its {@code threadsPerNode} workers ({@link DsBenchmark}'s, node 0's only with
 * {@code homeWorkers}), released together once every node has prefilled; after the run each node sends
 * node 0 its result and the caller's bytes (e.g. its encoded latency histograms), having closed its workers'
 * handles, and node 0 destroys the structure and returns every node's. {@link #aggregate} adds the results up.
 *
 * <p>Its waits: those of {@link ClusterRounds} (the structure by the peer timeout, the start by the peer
 * timeout plus {@link DsBenchmark#PREFILL_BOUND}, the results by the run's time,
 * {@link DsBenchmark#STOP_BOUND} and the peer timeout) and those of {@link DsBenchmark}. A failure names the
 * node it happened on. Not thread-safe: the calling thread must be the one that uses
 * {@link RemusCluster#computeThread()}.
 */
public final class ClusterDsBenchmark {
    private final ClusterRounds rounds;

    /**
     * One node's share of a run.
     *
     * @param result its workers' measurements
     * @param extra  the bytes the node's caller attached
     */
    public record NodeRun(DsBenchmarkResult result, byte[] extra) {
        /** Copies the bytes. */
        public NodeRun {
            Objects.requireNonNull(result, "result");
            extra = extra.clone();
        }

        /** {@return the bytes (a copy)} */
        @Override
        public byte[] extra() {
            return extra.clone();
        }
    }

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterDsBenchmark(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "data structure benchmark");
    }

    /** {@return this node's id} */
    public int nodeId() {
        return rounds.nodeId();
    }

    /**
     * Runs one configuration on this node, together with the other nodes.
     *
     * @param config what to run; {@code nodes} must be the cluster's size, and every node must pass the same
     *               ({@code segmentBytes} is not used: the cluster's segments are the join's)
     * @param sinks  where this node's workers' latencies go (worker indexes are the whole run's)
     * @param extra  called once this node's workers are done: the bytes to send node 0 with the result
     * @return on node 0 every node's share, by node id; on the other nodes only their own
     * @throws BadArgumentException   when the configuration's node count is not the cluster's size, or (naming
     *                                both) when this node's configuration differs from node 0's
     * @throws RemoteTimeoutException naming the nodes that did not reach a step in time
     * @throws RemusException         naming the node whose workers failed
     * @throws InterruptedException   when interrupted while the workers run
     */
    public List<NodeRun> run(DsBenchmarkConfig config, DsLatencySinks sinks, Supplier<byte[]> extra)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        Objects.requireNonNull(extra, "extra");
        rounds.requireClusterSize(config.nodes());
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        int self = cluster.nodeId();
        ClusterRounds.Round round;
        boolean latest = DsBenchmark.readsLatest(config);
        if (self == 0) {
            long ptr;
            try (NeverReclaimer r = new NeverReclaimer(main)) {
                ptr = Target.create(config, main, r, LockOptions.defaults());
            }
            round = rounds.publish(configWords(config), latest ? LatestKeys.create(main, ptr) : ptr);
        } else {
            round = rounds.await(configWords(config), "structure", ClusterDsBenchmark::describe);
        }
        long block = latest ? round.payload() : 0;
        long ptr = latest ? LatestKeys.structure(main, block) : round.payload();
        RemusNode[] nodes = new RemusNode[config.nodes()];
        nodes[self] = cluster.node();
        int[] local = self >= config.firstWorkerNode() ? new int[]{self} : new int[0];
        DsBenchmark.Run run = new DsBenchmark.Run(nodes, local, ptr, block, config, sinks,
                ReclaimBenchmarkConfig.benchEpochOptions().withClockSkew(EpochOptions.defaults().clockSkew()));
        NodeRun mine = ClusterResults.report(round, self,
                () -> new NodeRun(run.measure(() -> round.ready(DsBenchmark.PREFILL_BOUND)), extra.get()),
                ClusterDsBenchmark::encode);
        if (self != 0) {
            return List.of(mine);
        }
        Duration runTime = config.duration() != null ? config.duration() : DsBenchmark.RUN_BOUND;
        List<byte[]> blobs = round.collect(runTime.plus(DsBenchmark.STOP_BOUND).plus(rounds.peerTimeout()));
        Target.destroy(config, main, ptr);
        return ClusterResults.decodeAll(blobs, b -> decode(b, config),
                () -> "data structure benchmark run " + round.serial());
    }

    /**
     * Adds up every node's result of one run: outcomes, costs and prefilled keys are the sums, the elapsed
     * time the longest node's.
     *
     * @param nodes every node's result of the same run
     * @return the cluster's run
     * @throws BadArgumentException when the list is empty
     */
    public static DsBenchmarkResult aggregate(List<DsBenchmarkResult> nodes) {
        if (nodes.isEmpty()) {
            throw new BadArgumentException("no node results to aggregate");
        }
        long[] o = new long[2 * OpType.values().length];
        long[] c = new long[OpType.values().length * Cost.count()];
        long elapsed = 0;
        long fill = 0;
        for (DsBenchmarkResult r : nodes) {
            elapsed = Math.max(elapsed, r.elapsedNanos());
            fill += r.prefilled();
            long[] ro = r.outcomes();
            long[] rc = r.costs();
            for (int k = 0; k < o.length; k++) {
                o[k] += ro[k];
            }
            for (int k = 0; k < c.length; k++) {
                c[k] += rc[k];
            }
        }
        return new DsBenchmarkResult(nodes.getFirst().config(), elapsed, fill, o, c);
    }

    private static byte[] encode(NodeRun run) {
        DsBenchmarkResult r = run.result();
        long[] o = r.outcomes();
        long[] c = r.costs();
        byte[] extra = run.extra();
        ByteBuffer b = ByteBuffer.allocate(4 + 16 + 8 * (o.length + c.length) + 4 + extra.length)
                .order(ByteOrder.nativeOrder());
        b.putInt(ClusterResults.OK).putLong(r.elapsedNanos()).putLong(r.prefilled());
        for (long v : o) {
            b.putLong(v);
        }
        for (long v : c) {
            b.putLong(v);
        }
        b.putInt(extra.length).put(extra);
        return b.array();
    }

    private static NodeRun decode(ByteBuffer b, DsBenchmarkConfig config) {
        long elapsed = b.getLong();
        long fill = b.getLong();
        long[] o = new long[2 * OpType.values().length];
        long[] c = new long[OpType.values().length * Cost.count()];
        for (int k = 0; k < o.length; k++) {
            o[k] = b.getLong();
        }
        for (int k = 0; k < c.length; k++) {
            c[k] = b.getLong();
        }
        byte[] extra = new byte[b.getInt()];
        b.get(extra);
        return new NodeRun(new DsBenchmarkResult(config, elapsed, fill, o, c), extra);
    }

    private static long[] configWords(DsBenchmarkConfig c) {
        return new long[]{c.structure().ordinal(), c.lock().ordinal(), c.nodes(), c.threadsPerNode(),
                c.homeWorkers() ? 1 : 0, c.duration() == null ? 0 : c.duration().toNanos(), c.opsPerThread(),
                c.prefillPercent(), c.insertPercent(), c.removePercent(), c.keyLb(), c.keyUb(),
                Double.doubleToLongBits(c.zipfTheta()), c.ycsb() == null ? -1 : c.ycsb().ordinal(), c.valueBytes(),
                c.seed()};
    }

    private static String describe(long[] w) {
        StructureKind[] kinds = StructureKind.values();
        String kind = w[0] >= 0 && w[0] < kinds.length ? kinds[(int) w[0]].flagName() : "structure #" + w[0];
        return kind + " (lock #" + w[1] + ") on " + w[2] + " nodes x " + w[3] + " threads" + (w[4] == 0
                ? " (none on node 0)" : "") + ", " + (w[5] != 0 ? Duration.ofNanos(w[5]) : w[6] + " ops per thread")
                + ", prefill " + w[7] + "%, insert " + w[8] + "%, remove " + w[9] + "%, keys " + w[10] + ".." + w[11]
                + ", zipf " + Double.longBitsToDouble(w[12]) + ", ycsb " + (w[13] < 0 ? "none" : Ycsb.values()[(int) w[13]])
                + ", values " + w[14] + " bytes, seed " + w[15];
    }
}
