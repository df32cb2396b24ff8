package io.remus.tools.cli;

import io.remus.bench.lock.LockReport;
import io.remus.bench.perftest.FabricChoice;
import io.remus.alock.LockOptions;
import io.remus.bench.lock.ClusterLockBenchmark;
import io.remus.bench.lock.ClusterLockRunner;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.bench.lock.LockFlags;
import io.remus.bench.lock.LockRun;
import io.remus.bench.lock.LockRunner;
import io.remus.bench.engines.SimTime;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.InProcessFabric;
import io.remus.core.RemusCluster;
import io.remus.core.fabric.Fabric;
import io.remus.tools.lock.LockCsv;
import io.remus.tools.lock.LockFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code remus bench lock}: lock/unlock throughput and latency of ALock, the RDMA spin lock and the
 * RDMA MCS lock over a lock table, as in the ALock paper (Baran et al., SPAA 2024). {@code --lock},
 * {@code --p-local} and {@code --keys} take comma-separated lists and every combination runs, lock
 * kinds innermost, so a grid's ratios come from one invocation. Exit status 0 on success, 1 when a
 * run fails, 2 for bad flags.
 *
 * <p>Two modes. <b>One JVM</b> (the default): every node runs in this process, on a fresh fabric per
 * run ({@code --nodes}). <b>One process per node</b> ({@link ClusterLockBenchmark}): this process
 * joins a cluster with {@link RemusCluster#join}, runs its node's {@code --threads} workers against
 * one lock table shared by all nodes, and node 0 prints one report over every node's counts and
 * latency histograms. The cluster mode is on by the rule of {@link ClusterOptions}.
 *
 * <p>{@code --sim-time virtual} (one JVM, the simulator, a {@code --sim-cost} model) runs each point in the
 * simulator's virtual time ({@link SimTime}): {@code --duration} is virtual time, {@code --seed} also breaks the
 * scheduler's ties, no warm-up runs, and the report states the clock ({@link LockReport#time()}).
 */
@Command(name = "lock", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Lock benchmark: ALock vs RDMA spin and MCS locks over a lock table (ALock paper's workload).",
                "",
                ClusterOptions.RULE + "against one lock table that node 0 creates, and node 0 prints one report over "
                        + "every node's counts and latency histograms; the other nodes print nothing. Give every process "
                        + "the same flags.",
                ""})
public final class LockBenchCommand extends ClusterCapableCommand {
    private final Supplier<FabricChoice> hostFabric;

    @Mixin
    SharedOptions.LockOption lockOption;

    @Mixin
    NodeCountOption nodeCountOption;

    @Mixin
    SharedOptions.ThreadsOption threadsOption;

    @Mixin
    SharedOptions.LocalPickOption localPickOption = new SharedOptions.LocalPickOption("0.9");

    @Mixin
    SharedOptions.KeysOption keysOption = new SharedOptions.KeysOption("100");

    @Option(names = "--local-budget", paramLabel = "B", description = "ALock local cohort budget (default: LockOptions' 8).")
    Long localBudget;

    @Option(names = "--remote-budget", paramLabel = "B", description = "ALock remote cohort budget (default: LockOptions' 8).")
    Long remoteBudget;

    @Option(names = "--cs-ops", paramLabel = "N", defaultValue = "0",
            description = "In each critical section, N RDMA READs and N WRITEs of a word on the next node (default ${DEFAULT-VALUE}: an empty critical section, the ALock paper's workload).")
    int criticalSectionOps;

    @Mixin
    SharedOptions.DurationOption durationOption = new SharedOptions.DurationOption(2);

    @Mixin
    SharedOptions.WarmupOption warmupOption = new SharedOptions.WarmupOption("0.5");

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    FabricOption fabricOption;

    @Mixin
    DeviceOption deviceOption;

    @Mixin
    SimLatencyOption simLatencyOption;

    @Mixin
    SimCostOption simCostOption;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    JsonOption jsonOption;

    @Option(names = "--csv", paramLabel = "FILE", description = "Append one header-less CSV row per run to FILE (columns: see LockCsv, or --csv-columns).")
    Path csv;

    @Option(names = "--csv-columns", description = "Print the CSV column names, comma-separated, and exit.")
    boolean csvColumns;

    @Mixin
    ClusterOptions clusterOptions;

    @Override
    ClusterOptions clusterOptions() {
        return clusterOptions;
    }

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public LockBenchCommand(Supplier<FabricChoice> hostFabric) {
        this(hostFabric, System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    LockBenchCommand(Supplier<FabricChoice> hostFabric, Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (csvColumns) {
            out.println(String.join(",", LockCsv.COLUMNS));
            out.flush();
            return 0;
        }
        if (clusterMode()) {
            return callAsNode(out);
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        List<LockBenchmarkConfig> configs = configs();
        FabricChoice choice = fabricChoice();
        SimTime time = simTime();
        new OutputFiles().add("--csv", csv).check();
        PrintWriter err = spec.commandLine().getErr();
        choice.announce(err);
        if (!time.isVirtual()) {
            warnIfOversubscribed(err, Runtime.getRuntime().availableProcessors());
        }
        String fabricName = choice.name();
        List<String> notes = new ArrayList<>();
        Supplier<Fabric> fabrics = InProcessFabric.fresh(choice, deviceOption.device, simLatencyOption.simLatencyNanos,
                simCostOption.costModel(this::usage), time::simOptions, notes);
        if (localPickOption.list().stream().anyMatch(p -> p < 1) && nodeCountOption.nodes == 1) {
            notes.add("one node: every lock is local whatever --p-local says");
        }
        List<LockRun> runs = LockRunner.runAll(fabricName, fabrics, configs, warmupOption.seconds(), notes,
                this::appendCsv, time);
        print(new LockReport(fabricName, notes, runs, time.label()), out);
        return 0;
    }

    /** The cluster mode: joins, runs every point with the other processes, and prints node 0's report on node 0. */
    private int callAsNode(PrintWriter out) throws IOException, InterruptedException {
        if (simLatencyOption.simLatencyNanos > 0) {
            throw usage("--sim-latency-ns is for the simulator, in one JVM; not with one process per node");
        }
        refuseSimCost(simCostOption.simCost);
        simTimeOption.clock(true, null, null, seedOption.seed, List.of(), this::usage);
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricOption.fabric, deviceOption.device, environment, joinSetup, nodeCountOption.nodes);
        List<LockBenchmarkConfig> configs = configs(join.size());
        new OutputFiles().add("--csv", csv).check();
        join.ensureSegment(LockBenchmarkConfig.clusterSegmentBytes(configs));
        try (RemusCluster joined = join.join()) {
            String fabricName = joined.fabric().name();
            List<String> notes = join.notes(joined, "counts and latency histograms");
            ClusterLockBenchmark bench = new ClusterLockBenchmark(joined, join.timeout());
            List<LockRun> runs = ClusterLockRunner.runAll(fabricName, bench, configs, warmupOption.seconds(), notes,
                    this::appendCsv);
            if (joined.nodeId() == 0) {
                print(new LockReport(fabricName, notes, runs), out);
            }
        }
        return 0;
    }

    /** Appends the run's row to {@code --csv}'s file, when given. */
    private void appendCsv(LockRun run) throws IOException {
        if (csv != null) {
            Files.writeString(csv, LockCsv.row(run) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** Prints the report as a table, or as JSON with {@code --json}. */
    private void print(LockReport report, PrintWriter out) {
        if (jsonOption.json) {
            LockFormat.writeJson(report, out);
        } else {
            LockFormat.writeHuman(report, out);
        }
    }

    /**
     * @return the fabric, by {@link FabricChoice#choose}: {@code -d} asks for verbs, {@code --sim-latency-ns}
     *         and {@code --sim-cost} for sim
     */
    private FabricChoice fabricChoice() {
        List<String> simOnly = new ArrayList<>(simLatencyOption.simOnly(simCostOption));
        simOnly.addAll(simTimeOption.simOnly());
        return FabricOption.choose(spec.commandLine(), fabricOption.fabric, FabricChoice.given("-d", deviceOption.device),
                simOnly, hostFabric);
    }

    /**
     * @return the runs' clock: the host's, or virtual time under {@code --sim-cost}'s model with {@code --seed}
     * @throws ParameterException what {@link SimTimeOption#clock} refuses: virtual time with another fabric than sim,
     *                            without a cost model, or with {@code --csv} (its rows do not say which clock timed them)
     */
    private SimTime simTime() {
        return simTimeOption.clock(false, SimTimeOption.given(fabricOption.fabric), simCostOption.costModel(this::usage),
                seedOption.seed, List.of(new SimTimeOption.Untimed("--csv", csv, "its rows")), this::usage);
    }

    /**
     * Warns, one line on standard error, when the run has more than twice as many worker threads as this
     * host has CPUs ({@link LockFlags#oversubscribed}).
     *
     * @param err  standard error
     * @param cpus the CPUs this JVM may use
     * @return whether it warned
     */
    boolean warnIfOversubscribed(PrintWriter err, int cpus) {
        String warning = flags().oversubscribed(nodeCountOption.nodes, cpus);
        if (warning != null) {
            err.println("remus: warning: " + warning);
            err.flush();
        }
        return warning != null;
    }

    /**
     * Validates the flags into one configuration per run, in run order.
     *
     * @return the configurations
     * @throws ParameterException for flags out of range
     */
    List<LockBenchmarkConfig> configs() {
        return configs(nodeCountOption.nodes);
    }

    /**
     * Validates the flags into one configuration per run, in run order, for a cluster of {@code nodes} nodes.
     *
     * @param nodes the node count: {@code --nodes}, or the cluster's size with one process per node
     * @return the configurations
     * @throws ParameterException for flags out of range
     */
    private List<LockBenchmarkConfig> configs(int nodes) {
        LockFlags flags = flags();
        List<LockBenchmarkConfig> configs = engineRule(() -> flags.configs(nodes), null);
        if (simLatencyOption.simLatencyNanos < 0) {
            throw usage("--sim-latency-ns must not be negative, got " + simLatencyOption.simLatencyNanos);
        }
        simCostOption.costModel(this::usage);
        return configs;
    }

    /** @return the flags the engine's rules apply to, as given */
    private LockFlags flags() {
        return new LockFlags(threadsOption.one(), lockOption.list(), localPickOption.list(), keysOption.list(), localBudget,
                remoteBudget, criticalSectionOps, durationOption.seconds, warmupOption.seconds(), seedOption.seed);
    }
}
