package io.remus.bench.structure;

import io.remus.bench.engines.SimTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The runs of one {@code remus bench ds} invocation, one after the other: a single configuration, or
 * every (structure, threads) pair of a sweep in the order given. Each run has its own structure and its
 * own latency histograms ({@link DsLatencies}); in one JVM each also has a fresh fabric.
 */
public final class DsSweep {
    private DsSweep() {
    }

    /**
     * Runs every configuration with all nodes in this JVM, each on a fresh fabric from {@code fabrics}
     * (closed after its run).
     *
     * @param fabrics makes a fresh fabric
     * @param configs what to run, in order
     * @return one run per configuration, in the same order
     * @throws BadArgumentException when there is no configuration
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<DsRun> run(Supplier<Fabric> fabrics, List<DsBenchmarkConfig> configs)
            throws InterruptedException {
        return run(fabrics, configs, SimTime.HOST);
    }

    /**
     * Runs every configuration with all nodes in this JVM on the clock {@code time}, each on a fresh fabric from
     * {@code fabrics} (closed after its run). In virtual time each configuration runs in a virtual-time run of its
     * own, fabric and nodes included ({@link SimTime#call}), so that its counts follow from the model, the code
     * and the seed alone, and its elapsed time and latencies are virtual time.
     *
     * @param fabrics makes a fresh fabric; in virtual time called on the run's first scheduled thread
     * @param configs what to run, in order
     * @param time    the host's clock or virtual time
     * @return one run per configuration, in the same order
     * @throws BadArgumentException when there is no configuration
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<DsRun> run(Supplier<Fabric> fabrics, List<DsBenchmarkConfig> configs, SimTime time)
            throws InterruptedException {
        require(configs);
        List<DsRun> runs = new ArrayList<>();
        for (DsBenchmarkConfig config : configs) {
            DsLatencies latencies = new DsLatencies(config.workers());
            DsBenchmarkResult result = time.call(() -> {
                try (Fabric f = fabrics.get()) {
                    return DsBenchmark.run(f, config, latencies.sinks());
                }
            });
            runs.add(DsLatencies.run(result, latencies.merged()));
        }
        return runs;
    }

    /**
     * Runs every configuration as this process's node of a cluster, together with the other processes,
     * which must pass the same configurations in the same order ({@link ClusterDsBenchmark#run}: one of its
     * rounds per configuration, each with a structure of its own on node 0).
     *
     * @param bench   this node's benchmark
     * @param configs what to run, in order
     * @param notes   on node 0, receives one line per run with its operations by node
     * @return on node 0 one run per configuration, added up over the nodes with their latency histograms
     *         merged, in the same order; on the other nodes nothing
     * @throws BadArgumentException when there is no configuration
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<DsRun> runAsNode(ClusterDsBenchmark bench, List<DsBenchmarkConfig> configs, List<String> notes)
            throws InterruptedException {
        require(configs);
        List<DsRun> runs = new ArrayList<>();
        for (DsBenchmarkConfig config : configs) {
            DsLatencies latencies = new DsLatencies(config.workers());
            List<ClusterDsBenchmark.NodeRun> byNode = bench.run(config, latencies.sinks(),
                    () -> DsLatencies.encode(latencies.merged()));
            if (bench.nodeId() != 0) {
                continue;
            }
            List<DsBenchmarkResult> results = new ArrayList<>();
            List<Map<OpType, Histogram>> histograms = new ArrayList<>();
            for (ClusterDsBenchmark.NodeRun n : byNode) {
                results.add(n.result());
                histograms.add(DsLatencies.decode(n.extra()));
            }
            notes.add((configs.size() == 1 ? "" : config.label() + " x " + config.threadsPerNode() + " threads: ")
                    + "ops by node: " + String.join(", ", results.stream().map(r -> String.valueOf(r.ops())).toList()));
            runs.add(DsLatencies.run(ClusterDsBenchmark.aggregate(results), DsLatencies.sum(histograms)));
        }
        return runs;
    }

    private static void require(List<DsBenchmarkConfig> configs) {
        if (configs.isEmpty()) {
            throw new BadArgumentException("no data structure benchmark configuration to run");
        }
    }
}
