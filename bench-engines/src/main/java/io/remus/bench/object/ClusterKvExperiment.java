package io.remus.bench.object;

import io.remus.bench.engines.ClusterRounds;
import io.remus.bench.structure.Ycsb;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.NeverReclaimer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@link KvExperiment} as one process per node: every process of a joined {@link RemusCluster} (one node each,
 * every node a memory and a compute node) makes one instance and calls {@link #run} with the same configuration,
 * workloads and ways in the same order. Each run is one of the cluster's {@link ClusterRounds}: node 0 creates and
 * loads the way's store on every node (the one-sided maps, or the ALock way's value arrays and lock words; the
 * delegated way's trustees load their own keys) and a trustee directory of one word per node, and publishes the
 * round with a {@link RemoteBlob} holding the directory's pointer, every node's root and every lock word; each
 * node runs its {@code threadsPerNode} workers (and, delegated, its trustee, as {@link ClusterSharingExperiment}
 * does) and releases them once every node's are ready. After the run each node sends node 0 its counts, RDMA
 * operations and round trips and its caller's attachment; node 0 sums them and frees the maps. The value arrays,
 * lock words, directories and result blobs stay allocated until the cluster closes, as {@link ClusterRounds}'
 * directories do.
 *
 * <p><b>Checks.</b> As in one process, every worker checks every read: a value of its own key, not torn, and never
 * older than its own last update of the key. A value written by a worker of the same process must be one that
 * worker's started updates wrote; of a worker of another process, whose updates this process does not see, any
 * sequence is accepted.
 *
 * <p>Its waits: those of {@link ClusterRounds} (the store by the peer timeout, the start by the peer timeout plus
 * {@link KvExperiment#START_BOUND}, the results by the run's duration, {@link KvExperiment#STOP_BOUND} and the peer
 * timeout), and for the delegated way those of {@link ClusterSharingExperiment}. Each names the nodes it still
 * waits for. Not thread-safe: the calling thread must be the one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterKvExperiment {
    private final ClusterRounds rounds;

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterKvExperiment(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "key-value experiment");
    }

    /** {@return this node's id} */
    public int nodeId() {
        return rounds.nodeId();
    }

    /**
     * One run as this node saw it.
     *
     * @param result      on node 0 the whole run (every node's counts); on the other nodes this node's counts only
     * @param attachments on node 0 every node's attachment, by node id; on the other nodes only their own
     */
    public record NodeRun(KvResult result, List<byte[]> attachments) {
        /** Checks the parts. */
        public NodeRun {
            Objects.requireNonNull(result, "result");
            attachments = List.copyOf(attachments);
        }
    }

    /**
     * Runs one way under one workload on this node, together with the other nodes.
     *
     * @param config     what to run; {@code nodes} must be the cluster's size, every node must pass the same, and
     *                   {@code workload} and {@code way} must be among its own ({@code segmentBytes} is unused: the
     *                   join set the segments)
     * @param workload   the workload
     * @param way        the way
     * @param sinks      the sinks of this node's workers (worker {@code node * threadsPerNode + i})
     * @param attachment bytes this node sends to node 0 with its result, asked for after its workers stopped
     * @return what this node saw
     * @throws BadArgumentException    when the configuration's node count is not the cluster's size, or the way or
     *                                 workload is not among its own, or (naming both) when this node's configuration
     *                                 differs from node 0's
     * @throws KvReadMismatchException when a worker of this node read a value the updates rule out
     * @throws RemoteTimeoutException  naming the nodes that did not reach a step in time
     * @throws RemusException          naming the node whose workers failed
     * @throws InterruptedException    when interrupted while the workers run
     */
    public NodeRun run(KvConfig config, Ycsb workload, KvWay way, KvExperiment.Sinks sinks, Supplier<byte[]> attachment)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(way, "way");
        Objects.requireNonNull(sinks, "sinks");
        Objects.requireNonNull(attachment, "attachment");
        if (!config.ways().contains(way)) {
            throw new BadArgumentException("way " + way.flagName() + " is not one of the configuration's ways " + config.ways());
        }
        if (!config.workloads().contains(workload)) {
            throw new BadArgumentException("workload " + workload + " is not one of the configuration's workloads "
                    + config.workloads());
        }
        int self = rounds.nodeId();
        int n = rounds.size();
        rounds.requireClusterSize(config.nodes());
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        RemusNode[] nodes = new RemusNode[n];
        nodes[self] = cluster.node();
        double zeta = HomePicker.zeta(config.keys(), n, config.pLocal(), config.zipfTheta());
        ClusterSteps steps = new ClusterSteps();
        KvExperiment.Run run = new KvExperiment.Run(nodes, self, self, config, way, workload, zeta, sinks,
                UnaryOperator.identity(), steps);
        try (NeverReclaimer never = new NeverReclaimer(main)) {
            List<RemoteHashMap> maps = List.of();
            ClusterSteps.Published published;
            if (self == 0) {
                maps = run.load(main, never);
                long[] roots = run.roots();
                long[] locks = run.locks();
                int lockCount = locks == null ? 0 : locks.length;
                long[] words = new long[1 + n + lockCount];
                words[0] = lockCount;
                System.arraycopy(roots, 0, words, 1, n);
                if (locks != null) {
                    System.arraycopy(locks, 0, words, 1 + n, lockCount);
                }
                published = steps.publish(rounds, main, configWords(config, workload, way), words);
            } else {
                published = steps.await(rounds, main, configWords(config, workload, way), "store",
                        ClusterKvExperiment::describe);
            }
            long[] words = published.payload();
            int lockCount = (int) words[0];
            long[] roots = new long[n];
            System.arraycopy(words, 1, roots, 0, n);
            long[] locks = lockCount == 0 ? null : new long[lockCount];
            if (locks != null) {
                System.arraycopy(words, 1 + n, locks, 0, lockCount);
            }
            ClusterRounds.Round round = published.round();
            steps.open(main, round, cluster::barrier, rounds.peerTimeout().plus(KvExperiment.START_BOUND));
            ClusterSteps.Reported<KvExperiment.Partial> mine = steps.runAndReport(self, () -> run.runLocal(roots, locks),
                    attachment, (partial, extra) -> encode(partial.result(), extra));
            if (self != 0) {
                return new NodeRun(mine.partial().result(), List.of(mine.attachment()));
            }
            List<byte[]> blobs = round.collect(config.duration().plus(KvExperiment.STOP_BOUND).plus(rounds.peerTimeout()));
            try {
                return combine(way, workload, blobs, round.serial());
            } finally {
                for (RemoteHashMap m : maps) {
                    m.destroy();
                }
            }
        }
    }

    private static NodeRun combine(KvWay way, Ycsb workload, List<byte[]> blobs, long serial) {
        long[] sums = new long[7];
        long[] elapsed = new long[1];
        long[] posted = new long[Opcode.values().length];
        List<byte[]> attachments = ClusterSteps.combine(blobs, (b, node) -> {
            for (int i = 0; i < sums.length; i++) {
                sums[i] += b.getLong();
            }
            elapsed[0] = Math.max(elapsed[0], b.getLong());
            ClusterSteps.addPosted(b, posted);
        }, () -> "key-value experiment run " + serial + " (" + way.flagName() + " under YCSB " + workload + ")");
        return new NodeRun(new KvResult(way, workload, sums[0], sums[1], sums[2], elapsed[0], posted, sums[3], sums[4],
                sums[5], sums[6]), attachments);
    }

    private static byte[] encode(KvResult r, byte[] extra) {
        long[] posted = r.postedOperations();
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * 8 + 4 + 8 * posted.length + 4 + extra.length).order(ByteOrder.nativeOrder());
        b.putInt(ClusterSteps.OK).putLong(r.reads()).putLong(r.updates()).putLong(r.localPicks()).putLong(r.roundTrips())
                .putLong(r.readRoundTrips()).putLong(r.updateRoundTrips()).putLong(r.memoryRoundTrips())
                .putLong(r.elapsedNanos());
        ClusterSteps.putPosted(b, posted);
        b.putInt(extra.length).put(extra);
        return b.array();
    }

    private static long[] configWords(KvConfig c, Ycsb workload, KvWay way) {
        return new long[]{way.ordinal(), workload.ordinal(), c.nodes(), c.threadsPerNode(), c.keys(),
                Double.doubleToLongBits(c.zipfTheta()), Double.doubleToLongBits(c.pLocal()), c.duration().toNanos(), c.seed(),
                c.valueBytes()};
    }

    private static String describe(long[] w) {
        KvWay[] ways = KvWay.values();
        Ycsb[] workloads = Ycsb.values();
        String way = w[0] >= 0 && w[0] < ways.length ? ways[(int) w[0]].flagName() : "way #" + w[0];
        String workload = w[1] >= 0 && w[1] < workloads.length ? "YCSB " + workloads[(int) w[1]] : "workload #" + w[1];
        return way + " under " + workload + " on " + w[2] + " nodes x " + w[3] + " threads, " + w[4] + " keys, zipf "
                + Double.longBitsToDouble(w[5]) + ", p-local " + Double.longBitsToDouble(w[6]) + ", " + Duration.ofNanos(w[7])
                + ", seed " + w[8] + ", " + w[9] + "-byte values";
    }

}
