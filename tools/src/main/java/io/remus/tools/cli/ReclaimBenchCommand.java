package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.reclaim.ReclaimReport;
import io.remus.bench.perftest.FabricChoice;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.reclaim.ClusterReclaimBenchmark;
import io.remus.bench.reclaim.ReclaimBenchmark;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.reclaim.ReclaimBenchmarkResult;
import io.remus.bench.reclaim.ReclaimFlags;
import io.remus.core.RemusCluster;
import io.remus.core.fabric.Fabric;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.tools.plot.ReclaimPlot;
import io.remus.tools.reclaim.ReclaimFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code remus bench reclaim}: remote memory reclamation under churn (bench-engines'
 * {@link ReclaimBenchmark}): throughput, unreclaimed memory over time and RDMA operations per churn
 * operation of the never-free, barrier (Remus) and epoch-with-lease reclaimers, side by side in one
 * invocation, each on a fresh fabric, optionally with one thread stalled inside a guard for the whole
 * run. {@code --plot} draws the memory of every run over time. Exit status 0 on success, 1 when a run
 * fails, 2 for bad flags.
 *
 * <p>Two modes. <b>One JVM</b> (the default): every node runs in this process, on a fresh fabric per
 * run ({@code --nodes}). <b>One process per node</b> ({@link ClusterReclaimBenchmark}), on by the rule
 * of {@link ClusterOptions}: this process joins a cluster with {@link RemusCluster#join}, runs its
 * node's {@code --threads} churn workers on one churn array shared by all nodes, and node 0 prints one
 * report of every run added up over the nodes by {@link ClusterReclaimBenchmark#aggregate}: operations,
 * RDMA operations and retired and final bytes summed; the peak unreclaimed bytes the largest sum, over
 * sampling periods, of the nodes' samples in the same period (each node samples its own workers on its
 * own clock from the common start); and, in the notes, every node's operations and own peak.
 *
 * <p>{@code --sim-time virtual} (one JVM, the simulator, a {@code --sim-cost} model that charges time) runs each
 * reclaimer in the simulator's virtual time ({@link SimTime}): {@code --duration}, {@code --sample-ms},
 * {@code --lease-ms} and the stall are virtual time, {@code --seed} also breaks the scheduler's ties, there are no
 * warm-ups, and the table, the JSON and the plot title say "virtual time, model X, CPU charged as ..., seed N".
 * {@link SimTimeOption#clock} refuses what it cannot run with.
 */
@Command(name = "reclaim", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Reclamation benchmark: never-free vs barrier (Remus) vs epochs with leases under churn, "
                + "optionally with a thread stalled in a guard.",
                "",
                ClusterOptions.RULE + "churning one array that node 0 creates, and node 0 prints one report: per run "
                        + "the nodes' operations and RDMA operations summed, and as peak the largest sum of the nodes' "
                        + "unreclaimed bytes sampled in the same --sample-ms period (every node's own peak in the notes); "
                        + "the other nodes print nothing. Give every process the same flags.",
                ""})
public final class ReclaimBenchCommand extends ClusterCapableCommand {
    private final Supplier<FabricChoice> hostFabric;

    @Option(names = "--reclaimer", split = ",", paramLabel = "KIND", defaultValue = "never,barrier,epoch",
            description = "never, barrier or epoch; a comma list runs each, side by side (default ${DEFAULT-VALUE}).")
    List<String> reclaimers;

    @Mixin
    SharedOptions.StallOption stallOption = new SharedOptions.StallOption("no");

    @Mixin
    NodeCountOption nodeCountOption;

    @Mixin
    SharedOptions.ThreadsOption threadsOption;

    @Mixin
    SharedOptions.DurationOption durationOption = new SharedOptions.DurationOption(2);

    @Mixin
    SharedOptions.WarmupOption warmupOption = new SharedOptions.WarmupOption("0.5");

    @Option(names = "--ops", paramLabel = "N", description = "Operations per thread instead of a duration (not with -D, nor with a stalled barrier run).")
    Long ops;

    @Option(names = "--slots", paramLabel = "S", defaultValue = "64", description = "Slots of the shared churn array (default ${DEFAULT-VALUE}).")
    int slots;

    @Option(names = "--read-percent", paramLabel = "P", defaultValue = "50", description = "Share of operations that read, 0..100; the rest replace and retire (default ${DEFAULT-VALUE}).")
    int readPercent;

    @Option(names = "--lease-ms", paramLabel = "MS", defaultValue = "200", description = "Epoch reclaimer: lease of an announcement (default ${DEFAULT-VALUE}).")
    long leaseMillis;

    @Option(names = "--limit-kib", paramLabel = "KIB", defaultValue = "64", description = "Epoch reclaimer: unreclaimed KiB per thread at which a guard close waits for reclamation; a pass runs at a quarter of it (default ${DEFAULT-VALUE}).")
    long limitKib;

    @Option(names = "--barrier-every", paramLabel = "N", defaultValue = "1000", description = "Barrier reclaimer: operations between two barrier rounds (default ${DEFAULT-VALUE}).")
    int barrierEvery;

    @Option(names = "--sample-ms", paramLabel = "MS", defaultValue = "20", description = "Sampling period of the unreclaimed bytes (default ${DEFAULT-VALUE}).")
    long sampleMillis;

    @Mixin
    SegmentMibOption segmentMibOption = new SegmentMibOption(256);

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    BenchFabricOptions fabricFlags;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    JsonOption jsonOption;

    @Mixin
    SharedOptions.PlotOption plotOption;

    @Mixin
    ClusterOptions clusterOptions;

    @Override
    ClusterOptions clusterOptions() {
        return clusterOptions;
    }

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public ReclaimBenchCommand(Supplier<FabricChoice> hostFabric) {
        this(hostFabric, System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    ReclaimBenchCommand(Supplier<FabricChoice> hostFabric, Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (clusterMode()) {
            return callAsNode();
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        List<ReclaimBenchmarkConfig> configs = configs();
        SimTime time = simTimeOption.clock(false, SimTimeOption.given(fabricFlags.fabricOption.fabric),
                fabricFlags.simCostOption.costModel(this::usage), seedOption.seed, List.of(), this::usage);
        InProcessFabrics.Chosen chosen = InProcessFabrics.choose(spec.commandLine(), fabricFlags, hostFabric,
                new OutputFiles().add("--plot", plotOption.plot), this::usage, simTimeOption.simOnly(), time::simOptions);
        List<String> notes = chosen.notes();
        Supplier<Fabric> fabrics = chosen.fabrics();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<ReclaimBenchmarkResult> runs = ReclaimBenchmark.run(fabrics, configs, warmup(), time);
        if (time.isVirtual()) {
            if (warmup() != null) {
                notes.add("no warm-up: virtual-time figures do not depend on the host's JIT");
            }
        } else {
            noteWarmup(notes);
        }
        ReclaimReport report = new ReclaimReport(chosen.name(), notes, runs, time.label());
        print(report, out);
        plot(report, err);
        return 0;
    }

    /**
     * The cluster mode: joins, runs every configuration with the other processes, and prints node 0's
     * report on node 0. Node 0 draws {@code --plot} after the shutdown handshake, so that the other
     * nodes do not wait for the drawing (minutes in an emulated guest) within their shutdown timeout.
     */
    private int callAsNode() throws IOException, InterruptedException {
        refuseSimCost(fabricFlags.simCostOption.simCost);
        simTimeOption.clock(true, null, null, seedOption.seed, List.of(), this::usage);
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricFlags.fabricOption.fabric, fabricFlags.deviceOption.device, environment, joinSetup, nodeCountOption.nodes);
        List<ReclaimBenchmarkConfig> configs = configs(join.size(), EpochOptions.defaults().clockSkew());
        new OutputFiles().add("--plot", plotOption.plot).check();
        join.ensureSegment(segmentMibOption.segmentMib << 20);
        ReclaimReport report = null;
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts, RDMA operations and unreclaimed-memory samples");
            notes.add("peak: the largest sum of the nodes' unreclaimed bytes sampled in the same --sample-ms period; "
                    + "final and retired: sums over the nodes");
            ClusterReclaimBenchmark bench = new ClusterReclaimBenchmark(joined, join.timeout());
            List<List<ReclaimBenchmarkResult>> byConfig = bench.run(configs, warmup());
            noteWarmup(notes);
            if (joined.nodeId() == 0) {
                List<ReclaimBenchmarkResult> runs = ClusterReclaimBenchmark.aggregateAll(byConfig, notes);
                report = new ReclaimReport(joined.fabric().name(), notes, runs);
                print(report, spec.commandLine().getOut());
            }
        }
        if (report != null) {
            plot(report, spec.commandLine().getErr());
        }
        return 0;
    }

    private void print(ReclaimReport report, PrintWriter out) {
        if (jsonOption.json) {
            ReclaimFormat.writeJson(report, out);
        } else {
            ReclaimFormat.writeHuman(report, out);
        }
    }

    private void plot(ReclaimReport report, PrintWriter err) throws IOException {
        if (plotOption.plot != null) {
            ReclaimBenchmarkConfig first = report.runs().getFirst().config();
            ReclaimPlot.write("remus bench reclaim, " + report.fabric() + " fabric, " + first.nodes() + " nodes x "
                    + first.threadsPerNode() + " threads" + (report.time() == null ? "" : ", " + report.time()),
                    report.runs(), ReclaimReport::label, plotOption.plot);
            err.println("wrote " + plotOption.plot);
            err.flush();
        }
    }

    /**
     * Validates the flags into one configuration per run, in run order: for each reclaimer, without
     * then with the stalled thread.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<ReclaimBenchmarkConfig> configs() {
        return configs(nodeCountOption.nodes, ReclaimBenchmarkConfig.benchEpochOptions().clockSkew());
    }

    /**
     * Validates the flags into one configuration per run, in run order, for a cluster of {@code nodes} nodes.
     *
     * @param nodes     the node count: {@code --nodes}, or the cluster's size with one process per node
     * @param clockSkew the epoch reclaimer's clock skew: 0 in one JVM, {@link EpochOptions#defaults()}' across processes
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    private List<ReclaimBenchmarkConfig> configs(int nodes, Duration clockSkew) {
        ReclaimFlags flags = flags();
        return engineRule(() -> flags.configs(nodes, clockSkew), null);
    }

    /** @return the flags the engine's rules apply to, as given */
    private ReclaimFlags flags() {
        return new ReclaimFlags(reclaimers, stallOption.stall, threadsOption.one(), durationOption.seconds, matched("-D"),
                warmupOption.seconds(), ops, slots, readPercent, leaseMillis, limitKib, barrierEvery, sampleMillis,
                segmentMibOption.segmentMib, seedOption.seed);
    }

    private void noteWarmup(List<String> notes) {
        if (warmup() != null) {
            notes.add("warm-up: each reclaimer ran " + warmupOption.seconds() + " s unreported before the measured runs");
        }
    }

    /** @return {@code --warmup} as a duration, or null without warm-ups */
    private Duration warmup() {
        return warmupOption.seconds() > 0 ? Duration.ofNanos(Math.round(warmupOption.seconds() * 1e9)) : null;
    }
}
