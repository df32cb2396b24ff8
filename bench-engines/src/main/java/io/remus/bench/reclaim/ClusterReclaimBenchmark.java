package io.remus.bench.reclaim;

import io.remus.bench.churn.ChurnWorkload;
import io.remus.bench.engines.ClusterResults;
import io.remus.bench.engines.ClusterRounds;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The reclamation benchmark as one process per node: every process of a joined {@link RemusCluster}
 * (one node each, every node a memory and a compute node) makes one instance and calls {@link #run}
 * with the same configurations in the same order. Each run is one of the cluster's
 * {@link ClusterRounds}: node 0 creates the shared {@link ChurnWorkload} array and publishes the
 * round with the configuration and a two-word block {@code {array, last barrier round}}; every node
 * runs its {@code threadsPerNode} churn workers (and node 0 the stalled thread, with {@code stall})
 * against that one array, released together once every node's workers are ready, and samples its
 * own workers' unreclaimed bytes; after the run each node sends node 0 its result
 * ({@link ReclaimBenchmark}'s measurements of its own workers, with its samples), and node 0 returns
 * every node's. {@link #aggregate} adds them up.
 *
 * <p>The barrier reclaimer's barrier counts every worker of every node (and the stalled thread); the
 * processes leave it after the same round (see the word in the block). Its waits: those of
 * {@link ClusterRounds} (the array by the peer timeout, the start by the peer timeout plus
 * {@link ReclaimBenchmark#START_BOUND}, the results by the run's time, {@link ReclaimBenchmark#STOP_BOUND}
 * and the peer timeout) and those of {@link ReclaimBenchmark}. A failure names the node it happened on.
 * Not thread-safe: the calling thread must be the one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterReclaimBenchmark {
    /** The most samples a node sends node 0 for one run; a node with more sends every k-th. */
    public static final int MAX_SAMPLES = 100_000;

    private final ClusterRounds rounds;

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterReclaimBenchmark(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "reclamation benchmark");
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
     * @return on node 0 every node's result, by node id (each its own workers' measurements); on the
     *         other nodes only their own
     * @throws BadArgumentException   when the configuration's node count is not the cluster's size, or (naming
     *                                both) when this node's configuration differs from node 0's
     * @throws RemoteTimeoutException naming the nodes that did not reach a step in time
     * @throws RemusException         naming the node whose workers failed
     * @throws InterruptedException   when interrupted while the workers run
     */
    public List<ReclaimBenchmarkResult> run(ReclaimBenchmarkConfig config) throws InterruptedException {
        Objects.requireNonNull(config, "config");
        rounds.requireClusterSize(config.nodes());
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        int self = cluster.nodeId();
        ClusterRounds.Round round;
        if (self == 0) {
            long array = ChurnWorkload.createArray(main, main.allocator(), config.slots(), 0);
            long block = main.allocator().allocate(16, 0);
            RemoteBlob.copyOut(main, block, MemorySegment.ofArray(new long[]{array, 0}));
            round = rounds.publish(configWords(config), block);
        } else {
            round = rounds.await(configWords(config), "churn array", ClusterReclaimBenchmark::describe);
        }
        long block = round.payload();
        long array = main.read(block);
        RemusNode[] nodes = new RemusNode[config.nodes()];
        nodes[self] = cluster.node();
        long lastRound = config.reclaimer() == ReclaimerKind.BARRIER ? RemotePtr.offset(block, 8) : 0;
        ReclaimBenchmark.Run run = new ReclaimBenchmark.Run(nodes, new int[]{self}, array, lastRound, config);
        ReclaimBenchmarkResult mine = ClusterResults.report(round, self,
                () -> run.measure(() -> round.ready(ReclaimBenchmark.START_BOUND)), ClusterReclaimBenchmark::encode);
        if (self != 0) {
            return List.of(mine);
        }
        Duration runTime = config.duration() != null ? config.duration() : ReclaimBenchmark.RUN_BOUND;
        List<byte[]> blobs = round.collect(runTime.plus(ReclaimBenchmark.STOP_BOUND).plus(rounds.peerTimeout()));
        return ClusterResults.decodeAll(blobs, b -> decode(b, config),
                () -> "reclamation benchmark run " + round.serial());
    }

    /**
     * Adds up every run over the nodes ({@link #aggregate}), on node 0.
     *
     * @param byConfig what {@link #run(List, Duration)} returned on node 0: every node's result of each configuration
     * @param notes    the report's notes, which get each run's operations and own peak by node
     * @return each configuration's run over every node, in run order
     */
    public static List<ReclaimBenchmarkResult> aggregateAll(List<List<ReclaimBenchmarkResult>> byConfig, List<String> notes) {
        List<ReclaimBenchmarkResult> runs = new ArrayList<>();
        for (List<ReclaimBenchmarkResult> byNode : byConfig) {
            ReclaimBenchmarkResult all = aggregate(byNode);
            runs.add(all);
            notes.add(ReclaimReport.label(all) + ": ops by node: " + String.join(", ", byNode.stream()
                    .map(r -> String.valueOf(r.ops())).toList()) + "; peak unreclaimed bytes by node: "
                    + String.join(", ", byNode.stream().map(r -> String.valueOf(r.peakUnreclaimedBytes())).toList()));
        }
        return runs;
    }

    /**
     * Adds up every node's result of one run into the run of the whole cluster.
     * <ul>
     * <li>Operations, reads, replaces, restarts, violations, retired and final unreclaimed bytes,
     * limit timeouts and RDMA operations by opcode: the sums over the nodes. The elapsed time: the
     * longest node's. The first violation: the lowest node's that has one.</li>
     * <li>Samples: one per sampling period {@code k} (at {@code k x sampleEvery}), the sum over the
     * nodes of each node's largest sample in that period (its samples' times rounded to the nearest
     * period), a node without one there counting with its latest before it. Each node samples its
     * own workers on its own clock from its release, and the nodes are released within about one
     * poll pause of each other, so a period's sum adds samples taken at most about a period apart.</li>
     * <li>Peak unreclaimed bytes: the largest of those sums, at least the final sum. It is at least
     * every node's own peak and at most the sum of the nodes' peaks.</li>
     * </ul>
     *
     * @param nodes every node's result of the same run, by node id
     * @return the cluster's run
     * @throws BadArgumentException when the list is empty
     */
    public static ReclaimBenchmarkResult aggregate(List<ReclaimBenchmarkResult> nodes) {
        if (nodes.isEmpty()) {
            throw new BadArgumentException("no node results to aggregate");
        }
        ReclaimBenchmarkConfig config = nodes.getFirst().config();
        long[] posted = new long[Opcode.values().length];
        long ops = 0, elapsed = 0, reads = 0, replaces = 0, restarts = 0, violations = 0, retired = 0, last = 0;
        long timeouts = 0;
        String first = null;
        long period = Math.max(1, config.sampleEvery().toMillis());
        List<TreeMap<Long, ReclaimBenchmarkResult.Sample>> byPeriod = new ArrayList<>();
        long periods = 0;
        for (ReclaimBenchmarkResult r : nodes) {
            ops += r.ops();
            elapsed = Math.max(elapsed, r.elapsedNanos());
            reads += r.reads();
            replaces += r.replaces();
            restarts += r.restarts();
            violations += r.violations();
            retired += r.retiredBytes();
            last += r.finalUnreclaimedBytes();
            timeouts += r.limitTimeouts();
            if (first == null) {
                first = r.firstViolation();
            }
            long[] p = r.postedOperations();
            for (int k = 0; k < posted.length; k++) {
                posted[k] += p[k];
            }
            TreeMap<Long, ReclaimBenchmarkResult.Sample> mine = new TreeMap<>();
            for (ReclaimBenchmarkResult.Sample s : r.samples()) {
                mine.merge(Math.round((double) s.millis() / period), s,
                        (a, b) -> a.unreclaimedBytes() >= b.unreclaimedBytes() ? a : b);
            }
            byPeriod.add(mine);
            if (!mine.isEmpty()) {
                periods = Math.max(periods, mine.lastKey());
            }
        }
        List<ReclaimBenchmarkResult.Sample> samples = new ArrayList<>();
        long peak = last;
        for (long k = 0; k <= periods; k++) {
            long bytes = 0;
            long done = 0;
            for (TreeMap<Long, ReclaimBenchmarkResult.Sample> mine : byPeriod) {
                var at = mine.floorEntry(k);
                if (at != null) {
                    bytes += at.getValue().unreclaimedBytes();
                    done += at.getValue().ops();
                }
            }
            samples.add(new ReclaimBenchmarkResult.Sample(k * period, bytes, done));
            peak = Math.max(peak, bytes);
        }
        return new ReclaimBenchmarkResult(config, ops, elapsed, reads, replaces, restarts, violations, first, retired,
                peak, last, posted, timeouts, samples);
    }

    private static byte[] encode(ReclaimBenchmarkResult r) {
        List<ReclaimBenchmarkResult.Sample> samples = r.samples();
        int stride = (samples.size() + MAX_SAMPLES - 1) / MAX_SAMPLES;
        List<ReclaimBenchmarkResult.Sample> sent = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            if (i % stride == 0 || i == samples.size() - 1) {
                sent.add(samples.get(i));
            }
        }
        byte[] violation = r.firstViolation() == null ? null : r.firstViolation().getBytes(StandardCharsets.UTF_8);
        long[] posted = r.postedOperations();
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * 10 + 4 + 8 * posted.length + 4 + 24 * sent.size() + 4
                + (violation == null ? 0 : violation.length)).order(ByteOrder.nativeOrder());
        b.putInt(ClusterResults.OK);
        b.putLong(r.ops()).putLong(r.elapsedNanos()).putLong(r.reads()).putLong(r.replaces()).putLong(r.restarts())
                .putLong(r.violations()).putLong(r.retiredBytes()).putLong(r.peakUnreclaimedBytes())
                .putLong(r.finalUnreclaimedBytes()).putLong(r.limitTimeouts());
        b.putInt(posted.length);
        for (long p : posted) {
            b.putLong(p);
        }
        b.putInt(sent.size());
        for (ReclaimBenchmarkResult.Sample s : sent) {
            b.putLong(s.millis()).putLong(s.unreclaimedBytes()).putLong(s.ops());
        }
        putString(b, violation);
        return b.array();
    }

    private static ReclaimBenchmarkResult decode(ByteBuffer b, ReclaimBenchmarkConfig config) {
        long[] w = new long[10];
        for (int i = 0; i < w.length; i++) {
            w[i] = b.getLong();
        }
        long[] posted = new long[b.getInt()];
        for (int i = 0; i < posted.length; i++) {
            posted[i] = b.getLong();
        }
        List<ReclaimBenchmarkResult.Sample> samples = new ArrayList<>();
        for (int i = b.getInt(); i > 0; i--) {
            samples.add(new ReclaimBenchmarkResult.Sample(b.getLong(), b.getLong(), b.getLong()));
        }
        String violation = string(b);
        return new ReclaimBenchmarkResult(config, w[0], w[1], w[2], w[3], w[4], w[5], violation, w[6], w[7], w[8], posted,
                w[9], samples);
    }

    private static void putString(ByteBuffer b, byte[] bytes) {
        b.putInt(bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            b.put(bytes);
        }
    }

    private static String string(ByteBuffer b) {
        int length = b.getInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static long[] configWords(ReclaimBenchmarkConfig c) {
        var e = c.epoch();
        return new long[]{c.reclaimer().ordinal(), c.nodes(), c.threadsPerNode(),
                c.duration() == null ? 0 : c.duration().toNanos(), c.opsPerThread(), c.stall() ? 1 : 0, c.slots(),
                c.readPercent(), e.lease().toNanos(), e.clockSkew().toNanos(), e.passBytes(), e.limitBytes(),
                c.barrierEvery(), c.sampleEvery().toNanos(), c.seed()};
    }

    private static String describe(long[] w) {
        ReclaimerKind[] kinds = ReclaimerKind.values();
        String kind = w[0] >= 0 && w[0] < kinds.length ? kinds[(int) w[0]].flagName() : "kind #" + w[0];
        return kind + (w[5] != 0 ? "+stall" : "") + " on " + w[1] + " nodes x " + w[2] + " threads, "
                + (w[3] != 0 ? Duration.ofNanos(w[3]) : w[4] + " ops per thread") + ", " + w[6] + " slots, " + w[7]
                + "% reads, lease " + Duration.ofNanos(w[8]) + ", clock skew " + Duration.ofNanos(w[9]) + ", pass/limit "
                + w[10] + "/" + w[11] + " bytes, barrier every " + w[12] + ", sample every " + Duration.ofNanos(w[13])
                + ", seed " + w[14];
    }

    /**
     * Runs the warm-ups of {@code configs} ({@link ReclaimBenchmarkConfig#warmUps}) unreported, then each
     * configuration, with the other processes, which pass the same.
     *
     * @param configs what to measure, in order
     * @param warmup  how long each warm-up runs; null for none
     * @return per configuration, in order, what {@link #run(ReclaimBenchmarkConfig)} returned
     * @throws InterruptedException when interrupted while the workers run
     */
    public List<List<ReclaimBenchmarkResult>> run(List<ReclaimBenchmarkConfig> configs, Duration warmup)
            throws InterruptedException {
        if (warmup != null) {
            for (ReclaimBenchmarkConfig w : ReclaimBenchmarkConfig.warmUps(configs, warmup)) {
                run(w);
            }
        }
        List<List<ReclaimBenchmarkResult>> runs = new ArrayList<>();
        for (ReclaimBenchmarkConfig config : configs) {
            runs.add(run(config));
        }
        return runs;
    }
}
