package io.remus.bench.object;

import io.remus.bench.engines.SimTime;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Ycsb;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.zip.DataFormatException;

/**
 * Runs {@link KvExperiment} once on a fresh fabric with one fixed-range HdrHistogram per way, workload,
 * worker and operation type ({@link LatencyHistograms}; each recorded only by its own thread), merged per
 * way, workload and type after the run; or, as one node of a cluster of processes ({@link ClusterKvExperiment}),
 * this node's read and update histograms merged and sent to node 0 compressed, where every node's are merged.
 */
public final class KvRunner {
    private KvRunner() {
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run
     * @param config  what to run
     * @return one run per workload and way, workload-major, in the configured orders
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<KvRun> run(Supplier<Fabric> fabrics, KvConfig config) throws InterruptedException {
        return run(fabrics, config, SimTime.HOST);
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run; in virtual time called on the run's first scheduled
     *                thread
     * @param config  what to run
     * @param time    the host's clock or virtual time ({@link SimTime#call}): every workload and way is timed on it
     * @return one run per workload and way, workload-major, in the configured orders
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<KvRun> run(Supplier<Fabric> fabrics, KvConfig config, SimTime time) throws InterruptedException {
        int workers = config.workers();
        Histogram[][][][] h = new Histogram[KvWay.values().length][Ycsb.values().length][2][workers];
        for (KvWay way : config.ways()) {
            for (Ycsb y : config.workloads()) {
                for (int type = 0; type < 2; type++) {
                    for (int w = 0; w < workers; w++) {
                        h[way.ordinal()][y.ordinal()][type][w] = LatencyHistograms.create();
                    }
                }
            }
        }
        List<KvResult> results = time.call(() -> {
            try (Fabric fabric = fabrics.get()) {
                return KvExperiment.run(fabric, config, (way, workload, worker, update) -> {
                    Histogram mine = h[way.ordinal()][workload.ordinal()][update ? 1 : 0][worker];
                    return nanos -> LatencyHistograms.record(mine, nanos);
                });
            }
        });
        List<KvRun> runs = new ArrayList<>();
        for (KvResult r : results) {
            Histogram[][] byType = h[r.way().ordinal()][r.workload().ordinal()];
            runs.add(new KvRun(r, merged(byType[0]), merged(byType[1])));
        }
        return runs;
    }

    private static LatencySummary merged(Histogram[] histograms) {
        Histogram all = LatencyHistograms.create();
        for (Histogram one : histograms) {
            all.add(one);
        }
        return LatencySummary.of(all);
    }

    /**
     * Runs every workload and way of {@code config} as this process's node, together with the other nodes.
     *
     * @param experiment this process's cluster experiment
     * @param config     what to run: the same on every node, {@code nodes} the cluster's size
     * @return on node 0 one run per workload and way, workload-major, over every node; empty on the other nodes
     * @throws InterruptedException when interrupted while the workers run
     * @throws RemusException       naming the node that failed or did not come in time, or whose histograms do not decode
     */
    public static Optional<List<KvRun>> runAsNode(ClusterKvExperiment experiment, KvConfig config) throws InterruptedException {
        List<KvRun> runs = new ArrayList<>();
        int first = experiment.nodeId() * config.threadsPerNode();
        for (Ycsb workload : config.workloads()) {
            for (KvWay way : config.ways()) {
                Histogram[][] h = new Histogram[2][config.threadsPerNode()];
                for (int type = 0; type < 2; type++) {
                    for (int w = 0; w < config.threadsPerNode(); w++) {
                        h[type][w] = LatencyHistograms.create();
                    }
                }
                ClusterKvExperiment.NodeRun run = experiment.run(config, workload, way, (y, x, worker, update) -> {
                    Histogram mine = h[update ? 1 : 0][worker - first];
                    return nanos -> LatencyHistograms.record(mine, nanos);
                }, () -> {
                    byte[] reads = LatencyHistograms.compress(h[0]);
                    byte[] updates = LatencyHistograms.compress(h[1]);
                    return ByteBuffer.allocate(8 + reads.length + updates.length).putInt(reads.length).put(reads)
                            .putInt(updates.length).put(updates).array();
                });
                if (experiment.nodeId() == 0) {
                    Histogram reads = LatencyHistograms.create();
                    Histogram updates = LatencyHistograms.create();
                    for (int node = 0; node < run.attachments().size(); node++) {
                        ByteBuffer b = ByteBuffer.wrap(run.attachments().get(node));
                        try {
                            reads.add(decode(b));
                            updates.add(decode(b));
                        } catch (DataFormatException | RuntimeException e) {
                            throw new RemusException("node " + node + "'s latency histograms of " + way.flagName()
                                    + " under YCSB " + workload + " do not decode", e);
                        }
                    }
                    runs.add(new KvRun(run.result(), LatencySummary.of(reads), LatencySummary.of(updates)));
                }
            }
        }
        return experiment.nodeId() == 0 ? Optional.of(runs) : Optional.empty();
    }

    private static Histogram decode(ByteBuffer b) throws DataFormatException {
        byte[] bytes = new byte[b.getInt()];
        b.get(bytes);
        return LatencyHistograms.decompress(bytes);
    }
}
