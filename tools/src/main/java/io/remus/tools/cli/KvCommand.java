package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.ClusterKvExperiment;
import io.remus.bench.object.ExperimentFlags;
import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvRun;
import io.remus.bench.object.KvRunner;
import io.remus.bench.object.KvWay;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.ExperimentFabric;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.structure.Ycsb;
import io.remus.core.RemusCluster;
import io.remus.tools.experiment.KvFormat;
import io.remus.tools.experiment.KvPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * {@code remus experiment kv}: a key-value store of word-sized values under YCSB A and B, three ways side
 * by side on one fabric: the one-sided hash map, delegation to each node's trustee, and an
 * ALock-protected table ({@link io.remus.bench.object.KvExperiment}). Every read is checked against
 * the run's updates. By default every node runs in this process: on the simulator (default, with the
 * ConnectX-5 cost model) or on verbs, where each node has its own memory and queue pairs on the device.
 * <b>One process per node</b> ({@link ClusterKvExperiment}), by the rule of {@link ClusterOptions}: this
 * process joins a cluster with {@link RemusCluster#join}, runs its node's workers (and trustee), and node 0
 * prints one report over every node's counts and latency histograms.
 */
@Command(name = "kv", mixinStandardHelpOptions = true,
        description = {"Every worker reads or updates a picked key (YCSB A or B, uniform or zipfian) of a key-value "
                + "store implemented as one-sided (RemoteHashMap), delegated (a trustee per node) and alock (an "
                + "ALock-protected table) on the same fabric (sim or verbs): throughput, read and update latency p50/p99, "
                + "RDMA operations and round trips per operation.",
                "",
                ClusterOptions.RULE + "and its trustee on the store node 0 creates and loads, and node 0 prints one report "
                        + "over every node's counts and latency histograms; the other nodes print nothing. Give every "
                        + "process the same flags.",
                ""})
public final class KvCommand extends WorkloadExperimentCommand {

    /** The command as the {@code remus} tool makes it: the process's environment, the join as its arguments say. */
    public KvCommand() {
        this(System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    KvCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
    }

    @Mixin
    SharedOptions.WaysOption waysOption = new SharedOptions.WaysOption("one-sided,delegated,alock");

    @Option(names = "--workload", paramLabel = "W[,W...]", defaultValue = "A,B",
            description = "YCSB workloads, A (50%% reads, 50%% updates) and B (95%% reads) (default ${DEFAULT-VALUE}).")
    String workloads;

    @Mixin
    SharedOptions.KeysOption keysOption = new SharedOptions.KeysOption("1000");

    @Mixin
    SharedOptions.ValueSizeOption valueSizeOption = new SharedOptions.ValueSizeOption(8);

    @Mixin
    JsonFileOption jsonOption;

    @Override
    int callInProcess() throws IOException, InterruptedException {
        KvConfig config = config();
        ExperimentFabric fabric = fabricFlags.fabric(this::usage);
        SimTime time = simTime(fabric);
        new OutputFiles().add("--json", jsonOption.json).add("--plot", runOptions.plot.plot).check();
        List<String> notes = new ArrayList<>();
        List<KvRun> runs = KvRunner.run(fabric.fabrics(notes, time::simOptions), config, time);
        notes.add(ClusterJoin.hostLoad());
        report(config, fabric.kind(), notes, runs, fabric.title(), fabric.costName(), time.label());
        return 0;
    }

    /** The cluster mode: runs every workload and way with the other processes, and reports on node 0. */
    @Override
    int callAsNode(ClusterJoin join) throws IOException, InterruptedException {
        KvConfig config = config(join.size());
        new OutputFiles().add("--json", jsonOption.json).add("--plot", runOptions.plot.plot).check();
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts and latency histograms");
            Optional<List<KvRun>> runs = KvRunner.runAsNode(new ClusterKvExperiment(joined, join.timeout()), config);
            if (runs.isPresent()) {
                FabricKind kind = kindOf(joined);
                notes.add("check: a read of a value another process's worker wrote is checked for its key, its whole value "
                        + "and the reader's own updates, not against that worker's updates");
                report(config, kind, notes, runs.get(), joined.fabric().name(), null, null);
            }
        }
        return 0;
    }

    /** @param time {@link SimTime#label()}: how the figures were timed, or null for the wall clock */
    private void report(KvConfig config, FabricKind kind, List<String> notes, List<KvRun> runs, String title, String cost,
                        String time) throws IOException {
        notes.addAll(config.notes());
        KvFormat.writeHuman(config, notes, runs, time, spec.commandLine().getOut());
        if (jsonOption.json != null) {
            Files.writeString(jsonOption.json, KvFormat.json(config, kind.name().toLowerCase(Locale.ROOT), cost, durationOption.seconds,
                    notes, runs, time) + System.lineSeparator(), StandardCharsets.UTF_8);
            spec.commandLine().getErr().println("wrote " + jsonOption.json);
        }
        if (runOptions.plot.plot != null) {
            KvPlot.write("remus experiment kv, " + title + ", " + config.nodes() + " nodes x "
                    + config.threadsPerNode() + " threads, " + config.keys() + " keys of " + config.valueBytes() + " B, "
                    + (config.zipfTheta() == 0 ? "uniform" : "zipf " + config.zipfTheta())
                    + (config.usesPLocal() ? ", p-local " + config.pLocal() : "") + ", " + durationOption.seconds + " s"
                    + (time == null ? "" : ", " + time), runs, runOptions.plot.plot);
            spec.commandLine().getErr().println("wrote " + runOptions.plot.plot);
        }
        spec.commandLine().getErr().flush();
    }

    /**
     * Validates the flags into the configuration.
     *
     * @return the configuration
     * @throws ParameterException naming the flag and its value when one is bad
     */
    KvConfig config() {
        return config(runOptions.nodeCount.nodes);
    }

    /**
     * {@link #config()} for a cluster of {@code nodeCount} nodes.
     *
     * @param nodeCount {@code --nodes}, or the cluster's size with one process per node
     * @return the configuration
     */
    KvConfig config(int nodeCount) {
        fabricFlags.fabric(this::usage);
        List<KvWay> wayList = engineRule(() -> CommaList.parse(waysOption.ways, KvWay::parse), "--ways");
        List<Ycsb> workloadList = engineRule(() -> CommaList.parse(workloads, Ycsb::parse), "--workload");
        ExperimentFlags flags = flags();
        return engineRule(() -> flags.kv(wayList, workloadList, nodeCount, threadsOption.one(), keysOption.one(),
                valueSizeOption.valueSize), null);
    }
}
