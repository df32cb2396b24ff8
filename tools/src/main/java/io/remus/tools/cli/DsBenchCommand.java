package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.perftest.FabricChoice;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.structure.ClusterDsBenchmark;
import io.remus.bench.structure.DsBenchmark;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsFlags;
import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.DsSweep;
import io.remus.bench.structure.RemusMetrics;
import io.remus.bench.structure.StructureKind;
import io.remus.core.RemusCluster;
import io.remus.core.fabric.Fabric;
import io.remus.tools.ds.DsFormat;
import io.remus.tools.ds.DsReport;
import io.remus.tools.plot.DsThreadsPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code remus bench ds}: the sets and the hash map of remus-ds under Remus' integer-set microbenchmark
 * or a YCSB workload (bench-engines' {@link DsBenchmark}): throughput, latency percentiles per operation type,
 * and the compute threads' RDMA operations, bytes and round trips per operation; as a table, as JSON
 * ({@code --json FILE}) and as Remus' {@code metrics.txt} ({@code --metrics FILE}). Every node runs in
 * this process, or, by {@link ClusterOptions}' rule, this process is one node of a cluster and node 0
 * reports the run added up over the nodes ({@link ClusterDsBenchmark#aggregate}, latency histograms
 * merged). {@code --structure} and {@code --threads} take comma lists: every (structure, threads) pair
 * runs in turn ({@link DsSweep}), structures outer, and the runs print as one table
 * ({@link DsFormat#writeSweep}), as one JSON object whose {@code runs} hold every pair, and, with
 * {@code --plot FILE}, as throughput against threads, one series per structure ({@link DsThreadsPlot}).
 * {@code --sim-time virtual} (one JVM, the simulator, a {@code --sim-cost} model) runs each configuration in the
 * simulator's virtual time ({@link SimTime}): {@code -D} is virtual time, {@code --seed} also breaks the scheduler's
 * ties, and the outputs state the clock ({@link DsReport#time()}).
 * Exit status 0 on success, 1 when the run fails, 2 for bad flags.
 */
@Command(name = "ds", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Sets (lazy list, lock-free list, skip list) and the hash map under Remus' intset mix or YCSB A/B/C/D/F.",
                "",
                ClusterOptions.RULE + "on the structure node 0 creates, and node 0 prints one report and writes the "
                        + "files: counts and RDMA counts summed over the nodes, latency histograms merged; the other "
                        + "nodes print nothing. Give every process the same flags.",
                "",
                "--structure and --threads take comma lists (--structure lazy-list,hash-map --threads 1,2,4): every "
                        + "(structure, threads) pair runs in turn, and the runs print as one table; --plot FILE draws "
                        + "their throughput against threads, one series per structure.",
                ""})
public final class DsBenchCommand extends ClusterCapableCommand {
    private final Supplier<FabricChoice> hostFabric;

    @Option(names = "--structure", paramLabel = "S", defaultValue = "lazy-list",
            description = "lazy-list, lock-free-list, hash-map or skip-list (default ${DEFAULT-VALUE}).")
    String structure;

    @Mixin
    SharedOptions.LockOption lockOption;

    @Mixin
    SharedOptions.NumOpsOption numOpsOption = new SharedOptions.NumOpsOption(8192);

    @Mixin
    SharedOptions.DurationOption durationOption;

    @Option(names = "--prefill", paramLabel = "P", defaultValue = "50",
            description = "Percent of the key range inserted before the run (default ${DEFAULT-VALUE}); not with --ycsb, which loads every key.")
    int prefill;

    @Option(names = "--insert", paramLabel = "P", defaultValue = "50", description = "Percent of inserts (default ${DEFAULT-VALUE}).")
    int insert;

    @Option(names = "--remove", paramLabel = "P", defaultValue = "50",
            description = "Percent of removes (default ${DEFAULT-VALUE}); the rest of the operations are lookups.")
    int remove;

    @Option(names = "--key-lb", paramLabel = "K", defaultValue = "0", description = "Smallest key (default ${DEFAULT-VALUE}).")
    long keyLb;

    @Option(names = "--key-ub", paramLabel = "K", defaultValue = "1024", description = "Largest key, included (default ${DEFAULT-VALUE}).")
    long keyUb;

    @Mixin
    SharedOptions.ZipfOption zipfOption;

    @Mixin
    SharedOptions.YcsbOption ycsbOption = new SharedOptions.YcsbOption(null);

    @Mixin
    SharedOptions.ValueSizeOption valueSizeOption = new SharedOptions.ValueSizeOption(64);

    @Mixin
    NodeCountOption nodeCountOption;

    @Mixin
    SharedOptions.ThreadsOption threadsOption;

    @Option(names = "--home-workers", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Whether node 0, which holds the structure, runs workers too (default ${DEFAULT-VALUE}); --no-home-workers: every operation is remote.")
    boolean homeWorkers;

    @Mixin
    SegmentMibOption segmentMibOption;

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    BenchFabricOptions fabricFlags;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    JsonFileOption jsonOption;

    @Option(names = "--metrics", paramLabel = "FILE", description = "Also write Remus' metrics.txt keys (duration in us, get_t, ..., cas) to FILE; one run only.")
    Path metrics;

    @Mixin
    SharedOptions.PlotOption plotOption;

    @Mixin
    ClusterOptions clusterOptions;

    @Override
    ClusterOptions clusterOptions() {
        return clusterOptions;
    }

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public DsBenchCommand(Supplier<FabricChoice> hostFabric) {
        this(hostFabric, System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    DsBenchCommand(Supplier<FabricChoice> hostFabric, Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (clusterMode()) {
            return callAsNode();
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        List<DsBenchmarkConfig> configs = configs(nodeCountOption.nodes);
        SimTime time = simTime();
        InProcessFabrics.Chosen chosen = InProcessFabrics.choose(spec.commandLine(), fabricFlags, hostFabric,
                outputFiles(), this::usage, simTimeOption.simOnly(), time::simOptions);
        List<String> notes = chosen.notes();
        Supplier<Fabric> fabrics = chosen.fabrics();
        report(new DsReport(chosen.name(), notes, DsSweep.run(fabrics, configs, time), time.label()));
        return 0;
    }

    /**
     * @return the runs' clock: the host's, or virtual time under {@code --sim-cost}'s model with {@code --seed}
     * @throws ParameterException what {@link SimTimeOption#clock} refuses: virtual time with another fabric than sim,
     *                            without a cost model, or with {@code --metrics} (Remus' metrics.txt does not say which
     *                            clock timed it)
     */
    private SimTime simTime() {
        return simTimeOption.clock(false, SimTimeOption.given(fabricFlags.fabricOption.fabric),
                fabricFlags.simCostOption.costModel(this::usage), seedOption.seed,
                List.of(new SimTimeOption.Untimed("--metrics", metrics, "Remus' metrics.txt")), this::usage);
    }

    /** One process per node: joins, runs with the other processes, and reports on node 0. */
    private int callAsNode() throws IOException, InterruptedException {
        refuseSimCost(fabricFlags.simCostOption.simCost);
        simTimeOption.clock(true, null, null, seedOption.seed, List.of(), this::usage);
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricFlags.fabricOption.fabric, fabricFlags.deviceOption.device, environment, joinSetup, nodeCountOption.nodes);
        List<DsBenchmarkConfig> configs = configs(join.size());
        outputFiles().check();
        join.ensureSegment(segmentMibOption.segmentMib << 20);
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts, RDMA counts and latency histograms");
            ClusterDsBenchmark bench = new ClusterDsBenchmark(joined, join.timeout());
            List<DsRun> runs = DsSweep.runAsNode(bench, configs, notes);
            if (joined.nodeId() == 0) {
                report(new DsReport(joined.fabric().name(), notes, runs));
            }
        }
        return 0;
    }

    private OutputFiles outputFiles() {
        return new OutputFiles().add("--json", jsonOption.json).add("--metrics", metrics).add("--plot", plotOption.plot);
    }

    private void report(DsReport report) throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (report.runs().size() == 1) {
            DsFormat.writeHuman(report, spec.commandLine().getOut());
        } else {
            DsFormat.writeSweep(report, spec.commandLine().getOut());
        }
        if (jsonOption.json != null) {
            writeFile(jsonOption.json, out -> DsFormat.writeJson(report, out));
            err.println("wrote " + jsonOption.json);
        }
        if (metrics != null) {
            writeFile(metrics, out -> RemusMetrics.write(report.runs().getFirst().result(), out));
            err.println("wrote " + metrics);
        }
        if (plotOption.plot != null) {
            DsBenchmarkConfig first = report.runs().getFirst().result().config();
            DsThreadsPlot.write("remus bench ds, " + report.fabric() + " fabric, " + first.nodes() + " nodes, "
                    + (first.ycsb() != null ? "YCSB " + first.ycsb() : "insert " + first.insertPercent() + "% remove "
                    + first.removePercent() + "%") + ", keys " + first.keyLb() + ".." + first.keyUb()
                    + (report.time() != null ? ", " + report.time() : ""), report.runs(), plotOption.plot);
            err.println("wrote " + plotOption.plot);
        }
        err.flush();
    }

    private static void writeFile(Path file, Consumer<PrintWriter> body) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            body.accept(out);
            if (out.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    /**
     * Validates the flags into the first run's configuration.
     *
     * @return the configuration for {@code --nodes} of the first structure and thread count given
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    DsBenchmarkConfig config() {
        return configs(nodeCountOption.nodes).getFirst();
    }

    /**
     * Validates the flags into one configuration per run ({@link #configs(int)} for {@code --nodes}).
     *
     * @return the configurations, in run order
     * @throws ParameterException as {@link #configs(int)}
     */
    List<DsBenchmarkConfig> configs() {
        return configs(nodeCountOption.nodes);
    }

    /**
     * Validates the flags into one configuration per run: every structure of {@code --structure} with every
     * thread count of {@code --threads}, structures outer, each list in the order given.
     *
     * @param nodeCount {@code --nodes}, or the cluster's size with one process per node
     * @return the configurations, in run order
     * @throws ParameterException naming the flag and its value when one is out of range, a list element is
     *                            empty or given twice, or {@code --metrics} is given with more than one run
     */
    private List<DsBenchmarkConfig> configs(int nodeCount) {
        List<StructureKind> structures = engineRule(() -> CommaList.parse(structure, StructureKind::parse), "--structure");
        List<Integer> threadCounts = engineRule(() -> CommaList.parse(threadsOption.threads, CommaList::wholeNumber), "--threads");
        List<String> mixGiven = new ArrayList<>();
        for (String mix : List.of("--prefill", "--insert", "--remove")) {
            if (matched(mix)) {
                mixGiven.add(mix);
            }
        }
        DsFlags flags = new DsFlags(lockOption.lock, ycsbOption.ycsb, durationOption.seconds, numOpsOption.numOps, matched("--num-ops"), mixGiven,
                prefill, insert, remove, keyLb, keyUb, zipfOption.zipf, valueSizeOption.valueSize, homeWorkers,
                segmentMibOption.segmentMib, seedOption.seed);
        List<DsBenchmarkConfig> configs = engineRule(() -> flags.configs(nodeCount, structures, threadCounts), null);
        if (metrics != null && configs.size() > 1) {
            throw usage("--metrics writes one run's metrics.txt: not with " + configs.size() + " runs (--structure "
                    + structure + " --threads " + threadsOption.threads + ")");
        }
        return configs;
    }
}
