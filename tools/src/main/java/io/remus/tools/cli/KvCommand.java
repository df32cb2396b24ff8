package io.remus.tools.cli;

import io.remus.bench.object.ClusterKvExperiment;
import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvResult;
import io.remus.bench.object.KvRun;
import io.remus.bench.object.KvRunner;
import io.remus.bench.object.KvWay;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Ycsb;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.tools.experiment.KvPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static io.remus.tools.report.JsonReportWriter.reportObject;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.rdmaPerOp;
import static io.remus.tools.report.JsonText.str;

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
        FabricKind kind = fabricFlags.kind(this::usage);
        new OutputFiles().add("--json", jsonOption.json).add("--plot", runOptions.plot.plot).check();
        List<String> notes = new ArrayList<>();
        Supplier<Fabric> fabrics = fabricFlags.fabrics(kind, this::usage, notes);
        List<KvRun> runs = KvRunner.run(fabrics, config);
        notes.add(ClusterOptions.hostLoad());
        report(config, kind, notes, runs, fabricFlags.title(kind, this::usage), fabricFlags.costName(kind, this::usage));
        return 0;
    }

    /** The cluster mode: runs every workload and way with the other processes, and reports on node 0. */
    @Override
    int callAsNode(ClusterOptions.Join join) throws IOException, InterruptedException {
        KvConfig config = config(join.size());
        new OutputFiles().add("--json", jsonOption.json).add("--plot", runOptions.plot.plot).check();
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts and latency histograms");
            Optional<List<KvRun>> runs = KvRunner.runAsNode(new ClusterKvExperiment(joined, join.timeout()), config);
            if (runs.isPresent()) {
                FabricKind kind = kindOf(joined);
                notes.add("check: a read of a value another process's worker wrote is checked for its key, its whole value "
                        + "and the reader's own updates, not against that worker's updates");
                report(config, kind, notes, runs.get(), joined.fabric().name(), null);
            }
        }
        return 0;
    }

    private void report(KvConfig config, FabricKind kind, List<String> notes, List<KvRun> runs, String title, String cost)
            throws IOException {
        notes.add(config.keys() + " keys, key k on node k mod " + config.nodes() + ", " + config.valueBytes() + "-byte values ("
                + (config.valueBytes() == Long.BYTES ? "the delegated way's argument word" : "the delegated way's payloads")
                + "); picks " + (config.zipfTheta() == 0 ? "uniform" : "zipfian, theta "
                + config.zipfTheta()) + (config.usesPLocal() ? ", p-local " + config.pLocal() : ", over all keys"));
        notes.add("delegated: one trustee per node on its own thread; its response WRITEs count with the way's RDMA");
        notes.add("alock: one ALock per key over an array of values on the key's node");
        notes.add("one-sided: rtt/up includes memory management (allocating the new block, the epoch reclaimer), shown as mem/up");
        notes.add("check: every read returned a whole value written for its key, never older than the reader's own update");
        PrintWriter out = spec.commandLine().getOut();
        table(out, config, notes, runs);
        if (jsonOption.json != null) {
            Files.writeString(jsonOption.json, json(config, kind, cost, notes, runs) + System.lineSeparator(), StandardCharsets.UTF_8);
            spec.commandLine().getErr().println("wrote " + jsonOption.json);
        }
        if (runOptions.plot.plot != null) {
            KvPlot.write("remus experiment kv, " + title + ", " + config.nodes() + " nodes x "
                    + config.threadsPerNode() + " threads, " + config.keys() + " keys of " + config.valueBytes() + " B, "
                    + (config.zipfTheta() == 0 ? "uniform" : "zipf " + config.zipfTheta())
                    + (config.usesPLocal() ? ", p-local " + config.pLocal() : "") + ", " + durationOption.seconds + " s", runs, runOptions.plot.plot);
            spec.commandLine().getErr().println("wrote " + runOptions.plot.plot);
        }
        spec.commandLine().getErr().flush();
    }

    private static void table(PrintWriter out, KvConfig c, List<String> notes, List<KvRun> runs) {
        out.println("remus experiment kv: " + c.nodes() + " nodes x " + c.threadsPerNode()
                + " workers, each reads or updates a picked key");
        for (String note : notes) {
            out.println("note: " + note);
        }
        out.printf("%-4s %-10s %12s %9s %9s %9s %9s %8s %8s %8s %8s %9s %6s%n", "ycsb", "way", "ops/s", "rd-p50", "rd-p99",
                "up-p50", "up-p99", "rdma/op", "rtt/op", "rtt/rd", "rtt/up", "mem/up", "local");
        for (KvRun run : runs) {
            KvResult r = run.result();
            out.printf(Locale.ROOT, "%-4s %-10s %12.0f %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %8.2f %8.2f %9.2f %5.0f%%%n",
                    r.workload(), r.way().flagName(), r.opsPerSecond(), run.reads().median() / 1000.0,
                    run.reads().p99() / 1000.0, run.updates().median() / 1000.0, run.updates().p99() / 1000.0,
                    r.postedPerOp(), r.roundTripsPerOp(), r.roundTripsPerRead(), r.roundTripsPerUpdate(),
                    r.memoryRoundTripsPerUpdate(), r.operations() == 0 ? 0 : 100.0 * r.localPicks() / r.operations());
        }
        out.println("(latencies in microseconds)");
        out.flush();
    }

    /**
     * {@code --json}: one object with keys {@code tool test fabric cost_model} (null on verbs) {@code nodes threads_per_node keys value_bytes zipf
     * p_local seconds notes runs}; a run has {@code workload way reads updates local_picks ops_per_sec},
     * {@code read_latency_ns} and {@code update_latency_ns} ({@code count p50 p99 max mean}),
     * {@code rdma_per_op} (keyed by opcode, lower case, and {@code total}), {@code round_trips_per_op},
     * {@code round_trips_per_read}, {@code round_trips_per_update} and {@code memory_round_trips_per_update}.
     */
    private String json(KvConfig c, FabricKind kind, String cost, List<String> notes, List<KvRun> runs) {
        return reportObject("kv", kind.name().toLowerCase(Locale.ROOT), b -> {
            field(b, "cost_model", cost == null ? "null" : str(cost));
            field(b, "nodes", Integer.toString(c.nodes()));
            field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
            field(b, "keys", Integer.toString(c.keys()));
            field(b, "value_bytes", Integer.toString(c.valueBytes()));
            field(b, "zipf", num(c.zipfTheta()));
            field(b, "p_local", c.usesPLocal() ? num(c.pLocal()) : "null");
            field(b, "seconds", num(durationOption.seconds));
        }, notes, runs, KvCommand::jsonRun, b -> { });
    }

    private static void jsonRun(StringBuilder b, KvRun run) {
        KvResult r = run.result();
        b.append('{');
        field(b, "workload", str(r.workload().name()));
        field(b, "way", str(r.way().flagName()));
        field(b, "reads", Long.toString(r.reads()));
        field(b, "updates", Long.toString(r.updates()));
        field(b, "local_picks", Long.toString(r.localPicks()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        latency(b, "read_latency_ns", run.reads());
        latency(b, "update_latency_ns", run.updates());
        field(b, "rdma_per_op", rdmaPerOp(r::postedPerOp, r.postedPerOp()));
        field(b, "round_trips_per_op", num(r.roundTripsPerOp()));
        field(b, "round_trips_per_read", num(r.roundTripsPerRead()));
        field(b, "round_trips_per_update", num(r.roundTripsPerUpdate()));
        b.append("\"memory_round_trips_per_update\":").append(num(r.memoryRoundTripsPerUpdate())).append('}');
    }

    private static void latency(StringBuilder b, String name, LatencySummary l) {
        b.append('"').append(name).append("\":{");
        field(b, "count", Long.toString(l.count()));
        field(b, "p50", Long.toString(l.median()));
        field(b, "p99", Long.toString(l.p99()));
        field(b, "max", Long.toString(l.max()));
        b.append("\"mean\":").append(num(l.mean())).append("},");
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
        fabricFlags.kind(this::usage);
        List<KvWay> wayList;
        List<Ycsb> workloadList;
        try {
            wayList = CommaList.parse(waysOption.ways, KvWay::parse);
        } catch (BadArgumentException e) {
            throw usage("--ways: " + e.getMessage());
        }
        try {
            workloadList = CommaList.parse(workloads, Ycsb::parse);
        } catch (BadArgumentException e) {
            throw usage("--workload: " + e.getMessage());
        }
        Duration duration = duration();
        try {
            return new KvConfig(wayList, workloadList, nodeCount, threadsOption.one(), keysOption.one(), zipfOption.zipf, localPickOption.oneOrNaN(),
                    duration, runOptions.segment.segmentMib << 20, runOptions.seed.seed, valueSizeOption.valueSize);
        } catch (BadArgumentException e) {
            throw usage(flagNames(e.getMessage()));
        }
    }

    private static String flagNames(String message) {
        return sharedFlagNames(message).replace("keys must", "--keys must").replace("workloads must", "--workload must")
                .replace(": keys ", ": --keys ").replace("valueBytes", "--value-size");
    }

}
