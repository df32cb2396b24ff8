package io.remus.bench.object;

import io.remus.alock.LockContext;
import io.remus.bench.engines.ClusterRounds;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.ds.reclaim.NeverReclaimer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@link SharingExperiment} as one process per node: every process of a joined {@link RemusCluster} (one node
 * each, every node a memory and a compute node) makes one instance and calls {@link #run} with the same
 * configuration and ways in the same order. Each way is one of the cluster's {@link ClusterRounds}: node 0
 * creates the way's counters (counter {@code i} on node {@code i % nodes}, as in one process) and a trustee
 * directory of one word per node, and publishes the round with the configuration and a {@link RemoteBlob}
 * holding the directory's pointer and every counter's; each node runs its {@code threadsPerNode} workers (and,
 * for {@link SharingWay#DELEGATED}, its trustee, whose pointer it stores in its directory word by
 * compare-and-swap, where the other nodes' workers READ it) and releases them once every node's are ready.
 * After the run each node sends node 0 its counts, its RDMA operations, the increments its workers applied per
 * counter, its trustee's final values and its caller's attachment; node 0 reads the other ways' counters and
 * checks every counter against the increments all nodes applied to it, as in one process. Counters,
 * directories and result blobs are not freed: a run's few ways leave them to the cluster's close, as
 * {@link ClusterRounds} does.
 *
 * <p>Its waits: those of {@link ClusterRounds} (the counters by the peer timeout, the start by the peer timeout
 * plus {@link SharingExperiment#START_BOUND}, the results by the run's duration, {@link SharingExperiment#STOP_BOUND}
 * and the peer timeout); a worker waits for another node's trustee pointer for the peer timeout plus
 * {@link SharingExperiment#START_BOUND}; the delegated way's trustees serve until every node's workers stopped
 * (the cluster barrier, bounded by the join timeout). Each names the nodes it still waits for. Not thread-safe:
 * the calling thread must be the one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterSharingExperiment {
    private final ClusterRounds rounds;

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterSharingExperiment(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "sharing experiment");
    }

    /** {@return this node's id} */
    public int nodeId() {
        return rounds.nodeId();
    }

    /**
     * One way's run as this node saw it.
     *
     * @param result      on node 0 the whole run (every node's counts, counters checked); on the other nodes this
     *                    node's counts only
     * @param attachments on node 0 every node's attachment, by node id; on the other nodes only their own
     */
    public record NodeRun(SharingResult result, List<byte[]> attachments) {
        /** Checks the parts. */
        public NodeRun {
            Objects.requireNonNull(result, "result");
            attachments = List.copyOf(attachments);
        }
    }

    /**
     * Runs one way on this node, together with the other nodes.
     *
     * @param config     what to run; {@code nodes} must be the cluster's size, every node must pass the same, and
     *                   {@code way} must be one of its ways ({@code segmentBytes} is unused: the join set the segments)
     * @param way        the way to run
     * @param sinks      the sink of each of this node's workers (worker {@code node * threadsPerNode + i})
     * @param attachment bytes this node sends to node 0 with its result, asked for after its workers stopped
     * @return what this node saw
     * @throws BadArgumentException     when the configuration's node count is not the cluster's size or the way is
     *                                  not one of its ways, or (naming both) when this node's configuration differs
     *                                  from node 0's
     * @throws CounterMismatchException on node 0, when a counter's value contradicts the increments applied to it
     * @throws RemoteTimeoutException   naming the nodes that did not reach a step in time
     * @throws RemusException           naming the node whose workers failed
     * @throws InterruptedException     when interrupted while the workers run
     */
    public NodeRun run(SharingConfig config, SharingWay way, SharingExperiment.Sinks sinks, Supplier<byte[]> attachment)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(way, "way");
        Objects.requireNonNull(sinks, "sinks");
        Objects.requireNonNull(attachment, "attachment");
        if (!config.ways().contains(way)) {
            throw new BadArgumentException("way " + way.flagName() + " is not one of the configuration's ways " + config.ways());
        }
        int self = rounds.nodeId();
        int n = rounds.size();
        rounds.requireClusterSize(config.nodes());
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        RemusNode[] nodes = new RemusNode[n];
        nodes[self] = cluster.node();
        double zeta = HomePicker.zeta(config.counters(), n, config.pLocal(), config.zipfTheta());
        ClusterSteps directory = new ClusterSteps();
        SharingExperiment.Run run = new SharingExperiment.Run(nodes, self, self, config, way, zeta, sinks, directory);
        try (NeverReclaimer never = new NeverReclaimer(main)) {
            List<Object> handles = List.of();
            ClusterSteps.Published published;
            if (self == 0) {
                handles = run.create(main, never, new LockContext(main, run.lockOptions()));
                published = directory.publish(rounds, main, configWords(config, way), run.counterPtrs());
            } else {
                published = directory.await(rounds, main, configWords(config, way), "counters",
                        ClusterSharingExperiment::describe);
            }
            long[] ptrs = published.payload();
            ClusterRounds.Round round = published.round();
            directory.open(main, round, cluster::barrier, rounds.peerTimeout().plus(SharingExperiment.START_BOUND));
            ClusterSteps.Reported<SharingExperiment.Partial> mine = directory.runAndReport(self, () -> run.runLocal(ptrs),
                    attachment, ClusterSharingExperiment::encode);
            if (self != 0) {
                SharingExperiment.Partial partial = mine.partial();
                return new NodeRun(new SharingResult(way, partial.increments(), partial.localPicks(), partial.elapsedNanos(),
                        partial.postedOperations(), partial.roundTrips()), List.of(mine.attachment()));
            }
            List<byte[]> blobs = round.collect(config.duration().plus(SharingExperiment.STOP_BOUND).plus(rounds.peerTimeout()));
            try {
                return combine(config, way, blobs, run, handles, round.serial());
            } finally {
                run.destroy(handles);
            }
        }
    }

    private static NodeRun combine(SharingConfig config, SharingWay way, List<byte[]> blobs, SharingExperiment.Run run,
                                   List<Object> handles, long serial) {
        long[] sums = new long[3];
        long[] elapsed = new long[1];
        long[] posted = new long[Opcode.values().length];
        int[][] applied = new int[blobs.size()][];
        long[] trusteeValues = new long[config.counters()];
        List<byte[]> attachments = ClusterSteps.combine(blobs, (b, node) -> {
            sums[0] += b.getLong();
            sums[1] += b.getLong();
            elapsed[0] = Math.max(elapsed[0], b.getLong());
            sums[2] += b.getLong();
            ClusterSteps.addPosted(b, posted);
            applied[node] = new int[b.getInt()];
            b.asIntBuffer().get(applied[node]);
            b.position(b.position() + 4 * applied[node].length);
            int values = b.getInt();
            for (int c = 0; c < values; c++) {
                trusteeValues[c] += b.getLong();
            }
        }, () -> "sharing experiment run " + serial + " (" + way.flagName() + ")");
        long increments = sums[0];
        long[] finals = way == SharingWay.DELEGATED ? trusteeValues : run.readFinal(handles);
        SharingExperiment.checkTotals(way, finals, applied, increments);
        return new NodeRun(new SharingResult(way, increments, sums[1], elapsed[0], posted, sums[2]), attachments);
    }

    private static byte[] encode(SharingExperiment.Partial p, byte[] extra) {
        long[] posted = p.postedOperations();
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * 4 + 4 + 8 * posted.length + 4 + 4 * p.applied().length + 4
                        + 8 * p.trusteeValues().length + 4 + extra.length).order(ByteOrder.nativeOrder());
        b.putInt(ClusterSteps.OK).putLong(p.increments()).putLong(p.localPicks()).putLong(p.elapsedNanos()).putLong(p.roundTrips());
        ClusterSteps.putPosted(b, posted);
        b.putInt(p.applied().length);
        for (int v : p.applied()) {
            b.putInt(v);
        }
        b.putInt(p.trusteeValues().length);
        for (long v : p.trusteeValues()) {
            b.putLong(v);
        }
        b.putInt(extra.length).put(extra);
        return b.array();
    }

    private static long[] configWords(SharingConfig c, SharingWay way) {
        return new long[]{way.ordinal(), c.nodes(), c.threadsPerNode(), c.counters(), Double.doubleToLongBits(c.zipfTheta()),
                Double.doubleToLongBits(c.pLocal()), c.duration().toNanos(), c.seed()};
    }

    private static String describe(long[] w) {
        SharingWay[] ways = SharingWay.values();
        String way = w[0] >= 0 && w[0] < ways.length ? ways[(int) w[0]].flagName() : "way #" + w[0];
        return way + " on " + w[1] + " nodes x " + w[2] + " threads, " + w[3] + " counters, zipf "
                + Double.longBitsToDouble(w[4]) + ", p-local " + Double.longBitsToDouble(w[5]) + ", " + Duration.ofNanos(w[6])
                + ", seed " + w[7];
    }

}
