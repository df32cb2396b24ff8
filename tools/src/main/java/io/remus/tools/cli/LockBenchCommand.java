package io.remus.tools.cli;

import io.remus.bench.lock.LockReport;
import io.remus.bench.perftest.FabricChoice;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.bench.lock.ClusterLockBenchmark;
import io.remus.bench.lock.ClusterLockRunner;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.bench.lock.LockRun;
import io.remus.bench.lock.LockRunner;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.InProcessFabric;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 */
@Command(name = "lock", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Lock benchmark: ALock vs RDMA spin and MCS locks over a lock table (ALock paper's workload).",
                "",
                ClusterOptions.RULE + "against one lock table that node 0 creates, and node 0 prints one report over "
                        + "every node's counts and latency histograms; the other nodes print nothing. Give every process "
                        + "the same flags.",
                ""})
public final class LockBenchCommand extends ClusterCapableCommand {
    private static final int MAX_NODES = 64;
    private static final int MAX_THREADS = 256;
    private static final int MAX_KEYS = 1 << 20;
    /** The most worker threads of a run, all nodes together: each spins while it waits for a lock. */
    static final int MAX_TOTAL_THREADS = 1024;

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
        new OutputFiles().add("--csv", csv).check();
        PrintWriter err = spec.commandLine().getErr();
        choice.announce(err);
        warnIfOversubscribed(err, Runtime.getRuntime().availableProcessors());
        String fabricName = choice.name();
        List<String> notes = new ArrayList<>();
        notes.add("fabric " + fabricName + " (" + choice.reason() + ")");
        Supplier<Fabric> fabrics = fabrics(choice.kind(), notes);
        notes.add(ClusterJoin.hostLoad());
        if (localPickOption.list().stream().anyMatch(p -> p < 1) && nodeCountOption.nodes == 1) {
            notes.add("one node: every lock is local whatever --p-local says");
        }
        warmUp(configs, fabricName, fabrics, notes);
        List<LockRun> runs = new ArrayList<>();
        for (LockBenchmarkConfig config : configs) {
            LockRun run = LockRunner.run(fabricName, fabrics, config);
            runs.add(run);
            appendCsv(run);
        }
        print(new LockReport(fabricName, notes, runs), out);
        return 0;
    }

    /** The cluster mode: joins, runs every point with the other processes, and prints node 0's report on node 0. */
    private int callAsNode(PrintWriter out) throws IOException, InterruptedException {
        if (simLatencyOption.simLatencyNanos > 0) {
            throw usage("--sim-latency-ns is for the simulator, in one JVM; not with one process per node");
        }
        refuseSimCost(simCostOption.simCost);
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricOption.fabric, deviceOption.device, environment, joinSetup, nodeCountOption.nodes);
        List<LockBenchmarkConfig> configs = configs(join.size());
        new OutputFiles().add("--csv", csv).check();
        join.ensureSegment(LockBenchmarkConfig.clusterSegmentBytes(configs));
        try (RemusCluster joined = join.join()) {
            String fabricName = joined.fabric().name();
            List<String> notes = join.notes(joined, "counts and latency histograms");
            ClusterLockBenchmark bench = new ClusterLockBenchmark(joined, join.timeout());
            if (warmupOption.seconds() > 0) {
                Duration warmup = Duration.ofNanos(Math.round(warmupOption.seconds() * 1e9));
                for (LockBenchmarkConfig w : LockBenchmarkConfig.warmUps(configs, warmup)) {
                    ClusterLockRunner.run(fabricName, bench, w);
                }
                notes.add("warm-up: each lock kind ran " + warmupOption.seconds() + " s unreported before the measured runs");
            }
            List<LockRun> runs = new ArrayList<>();
            for (LockBenchmarkConfig config : configs) {
                ClusterLockRunner.NodeRun run = ClusterLockRunner.run(fabricName, bench, config);
                Optional<LockRun> all = run.aggregate();
                if (all.isPresent()) {
                    runs.add(all.get());
                    notes.add(config.kind().cliName() + ", p-local " + config.pLocal() + ", " + config.keys()
                            + " keys: pairs by node: " + String.join(", ",
                            run.nodeOperations().stream().map(String::valueOf).toList()));
                    appendCsv(all.get());
                }
            }
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

    private void warmUp(List<LockBenchmarkConfig> configs, String fabricName, Supplier<Fabric> fabrics,
                        List<String> notes) throws InterruptedException {
        if (warmupOption.seconds() == 0) {
            return;
        }
        Duration warmup = Duration.ofNanos(Math.round(warmupOption.seconds() * 1e9));
        for (LockBenchmarkConfig w : LockBenchmarkConfig.warmUps(configs, warmup)) {
            LockRunner.run(fabricName, fabrics, w);
        }
        notes.add("warm-up: each lock kind ran " + warmupOption.seconds() + " s unreported before the measured runs");
    }

    private Supplier<Fabric> fabrics(FabricKind kind, List<String> notes) {
        if (kind == FabricKind.SIM && simLatencyOption.simLatencyNanos > 0) {
            notes.add("sim execution latency injected: " + simLatencyOption.simLatencyNanos + " ns per work request");
        }
        SimCostModel cost = simCostOption.costModel(this::usage);
        if (kind == FabricKind.SIM && !cost.isFree()) {
            notes.add("sim cost model " + cost.describe() + " (times are lower bounds)");
        }
        return InProcessFabric.fresh(kind, deviceOption.device,
                SimOptions.defaults().withExecutionLatencyNanos(simLatencyOption.simLatencyNanos).withCostModel(cost), notes);
    }

    /**
     * @return the fabric, by {@link FabricChoice#choose}: {@code -d} asks for verbs, {@code --sim-latency-ns}
     *         and {@code --sim-cost} for sim
     */
    private FabricChoice fabricChoice() {
        return FabricOption.choose(spec.commandLine(), fabricOption.fabric, FabricChoice.given("-d", deviceOption.device),
                simLatencyOption.simOnly(simCostOption), hostFabric);
    }

    /**
     * Warns, one line on standard error, when the run has more than twice as many worker threads as this
     * host has CPUs: every worker spins while it waits, so a lock holder that is descheduled holds up its
     * waiters for a time slice, and the run measures the scheduler more than the locks.
     *
     * @param err  standard error
     * @param cpus the CPUs this JVM may use
     * @return whether it warned
     */
    boolean warnIfOversubscribed(PrintWriter err, int cpus) {
        int threads = threadsOption.one();
        int total = nodeCountOption.nodes * threads;
        if (total <= 2 * cpus) {
            return false;
        }
        err.println("remus: warning: --nodes " + nodeCountOption.nodes + " x --threads " + threads + " = " + total
                + " spinning worker threads on " + cpus + " CPU(s): waiters spin through the time slices of "
                + "descheduled lock holders, so progress is slow and the figures measure the scheduler");
        err.flush();
        return true;
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
        int threads = threadsOption.one();
        List<String> locks = lockOption.list();
        List<Double> pLocal = localPickOption.list();
        List<Integer> keys = keysOption.list();
        if (nodes < 1 || nodes > MAX_NODES) {
            throw usage("--nodes must be 1.." + MAX_NODES + ", got " + nodes);
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw usage("--threads must be 1.." + MAX_THREADS + ", got " + threads);
        }
        if (nodes * threads > MAX_TOTAL_THREADS) {
            throw usage("--nodes " + nodes + " x --threads " + threads + " = " + nodes * threads
                    + " worker threads, each spinning while it waits: at most " + MAX_TOTAL_THREADS);
        }
        if (!(durationOption.seconds > 0) || durationOption.seconds > 3600) {
            throw usage("-D must be in (0, 3600] seconds, got " + durationOption.seconds);
        }
        if (!(warmupOption.seconds() >= 0) || warmupOption.seconds() > 600) {
            throw usage("--warmup must be in [0, 600] seconds, got " + warmupOption.seconds());
        }
        if (simLatencyOption.simLatencyNanos < 0) {
            throw usage("--sim-latency-ns must not be negative, got " + simLatencyOption.simLatencyNanos);
        }
        simCostOption.costModel(this::usage);
        LockOptions defaults = LockOptions.defaults();
        long local = localBudget != null ? localBudget : defaults.localBudget();
        long remote = remoteBudget != null ? remoteBudget : defaults.remoteBudget();
        if (local < 1 || remote < 1) {
            throw usage("--local-budget and --remote-budget must be at least 1, got " + local + " and " + remote);
        }
        List<LockKind> kinds = new ArrayList<>();
        for (String name : locks) {
            try {
                kinds.add(LockKind.parse(name.strip()));
            } catch (BadArgumentException e) {
                throw usage("--lock: " + e.getMessage());
            }
        }
        for (double p : pLocal) {
            if (!(p >= 0 && p <= 1)) {
                throw usage("--p-local must be in [0, 1], got " + p);
            }
        }
        for (int k : keys) {
            if (k < nodes || k > MAX_KEYS) {
                throw usage("--keys must be " + nodes + " (one per node).." + MAX_KEYS + ", got " + k);
            }
        }
        if (criticalSectionOps < 0 || criticalSectionOps > LockBenchmarkConfig.MAX_CRITICAL_SECTION_OPS) {
            throw usage("--cs-ops must be 0.." + LockBenchmarkConfig.MAX_CRITICAL_SECTION_OPS + ", got " + criticalSectionOps);
        }
        Duration duration = Duration.ofNanos(Math.round(durationOption.seconds * 1e9));
        List<LockBenchmarkConfig> configs = new ArrayList<>();
        for (double p : pLocal) {
            for (int k : keys) {
                for (LockKind kind : kinds) {
                    configs.add(new LockBenchmarkConfig(kind, nodes, threads, p, k, local, remote, duration, seedOption.seed,
                            criticalSectionOps));
                }
            }
        }
        return configs;
    }
}
