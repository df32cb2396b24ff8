package io.remus.bench.object;

import io.remus.bench.engines.SimTime;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.zip.DataFormatException;

/**
 * Runs {@link SharingExperiment} once on a fresh fabric with one fixed-range HdrHistogram per way and
 * worker ({@link LatencyHistograms}; each recorded only by its own thread), merged per way after the run;
 * or, as one node of a cluster of processes ({@link ClusterSharingExperiment}), this node's workers' histograms
 * merged and sent to node 0 compressed ({@link Histogram#encodeIntoCompressedByteBuffer}), where every node's
 * are merged.
 */
public final class SharingRunner {
    private SharingRunner() {
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run
     * @param config  what to run
     * @return one run per way, in the configured order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> run(Supplier<Fabric> fabrics, SharingConfig config) throws InterruptedException {
        return run(fabrics, config, SimTime.HOST);
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run; in virtual time called on the run's first scheduled
     *                thread
     * @param config  what to run
     * @param time    the host's clock or virtual time ({@link SimTime#call}): every way of the run is timed on it
     * @return one run per way, in the configured order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> run(Supplier<Fabric> fabrics, SharingConfig config, SimTime time)
            throws InterruptedException {
        int ways = SharingWay.values().length;
        Histogram[][] histograms = new Histogram[ways][config.workers()];
        for (SharingWay way : config.ways()) {
            for (int w = 0; w < config.workers(); w++) {
                histograms[way.ordinal()][w] = LatencyHistograms.create();
            }
        }
        List<SharingResult> results = time.call(() -> {
            try (Fabric fabric = fabrics.get()) {
                return SharingExperiment.run(fabric, config, (way, worker) -> {
                    Histogram h = histograms[way.ordinal()][worker];
                    return nanos -> LatencyHistograms.record(h, nanos);
                });
            }
        });
        List<SharingRun> runs = new ArrayList<>();
        for (SharingResult r : results) {
            Histogram merged = LatencyHistograms.create();
            for (Histogram h : histograms[r.way().ordinal()]) {
                merged.add(h);
            }
            runs.add(new SharingRun(config.threadsPerNode(), r, LatencySummary.of(merged)));
        }
        return runs;
    }

    /**
     * Runs every way of {@code config} as this process's node, together with the other nodes.
     *
     * @param experiment this process's cluster experiment
     * @param config     what to run: the same on every node, {@code nodes} the cluster's size
     * @return on node 0 one run per way, in the configured order, over every node; empty on the other nodes
     * @throws InterruptedException when interrupted while the workers run
     * @throws RemusException       naming the node that failed or did not come in time, or when a node's histogram
     *                              does not decode
     */
    public static Optional<List<SharingRun>> runAsNode(ClusterSharingExperiment experiment, SharingConfig config)
            throws InterruptedException {
        List<SharingRun> runs = new ArrayList<>();
        int first = experiment.nodeId() * config.threadsPerNode();
        for (SharingWay way : config.ways()) {
            Histogram[] histograms = new Histogram[config.threadsPerNode()];
            for (int w = 0; w < histograms.length; w++) {
                histograms[w] = LatencyHistograms.create();
            }
            ClusterSharingExperiment.NodeRun run = experiment.run(config, way, (w, worker) -> {
                Histogram h = histograms[worker - first];
                return nanos -> LatencyHistograms.record(h, nanos);
            }, () -> LatencyHistograms.compress(histograms));
            if (experiment.nodeId() == 0) {
                Histogram merged = LatencyHistograms.create();
                for (int node = 0; node < run.attachments().size(); node++) {
                    try {
                        merged.add(LatencyHistograms.decompress(run.attachments().get(node)));
                    } catch (DataFormatException e) {
                        throw new RemusException("node " + node + "'s latency histogram of " + way.flagName() + " does not decode", e);
                    }
                }
                runs.add(new SharingRun(config.threadsPerNode(), run.result(), LatencySummary.of(merged)));
            }
        }
        return experiment.nodeId() == 0 ? Optional.of(runs) : Optional.empty();
    }

    /**
     * {@link #run(Supplier, SharingConfig)} for each configuration in turn (one per thread count).
     *
     * @param fabrics makes a fresh fabric for each run; closed after it
     * @param configs what to run, in order
     * @return every configuration's runs, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> run(Supplier<Fabric> fabrics, List<SharingConfig> configs) throws InterruptedException {
        return run(fabrics, configs, SimTime.HOST);
    }

    /**
     * {@link #run(Supplier, SharingConfig, SimTime)} for each configuration in turn (one per thread count), each in a
     * virtual-time run of its own when {@code time} is virtual.
     *
     * @param fabrics makes a fresh fabric for each run; closed after it
     * @param configs what to run, in order
     * @param time    the host's clock or virtual time
     * @return every configuration's runs, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> run(Supplier<Fabric> fabrics, List<SharingConfig> configs, SimTime time)
            throws InterruptedException {
        List<SharingRun> runs = new ArrayList<>();
        for (SharingConfig c : configs) {
            runs.addAll(run(fabrics, c, time));
        }
        return runs;
    }

    /**
     * {@link #runAsNode(ClusterSharingExperiment, SharingConfig)} for each configuration in turn.
     *
     * @param experiment this process's cluster experiment
     * @param configs    what to run, in order: the same on every node
     * @return on node 0 every configuration's runs, in order, over every node; empty on the other nodes
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> runAsNode(ClusterSharingExperiment experiment, List<SharingConfig> configs)
            throws InterruptedException {
        List<SharingRun> runs = new ArrayList<>();
        for (SharingConfig c : configs) {
            runAsNode(experiment, c).ifPresent(runs::addAll);
        }
        return runs;
    }
}
