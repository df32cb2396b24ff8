package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.ClusterSharingExperiment;
import io.remus.bench.object.ExperimentFlags;
import io.remus.bench.object.SharingConfig;
import io.remus.bench.object.SharingRun;
import io.remus.bench.object.SharingRunner;
import io.remus.bench.object.SharingWay;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.ExperimentFabric;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.RemusCluster;
import io.remus.tools.experiment.SharingFormat;
import io.remus.tools.experiment.SharingPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code remus experiment sharing}: Gossamer's shared-counter microbenchmark (Trust&lt;T&gt; / Gossamer,
 * UIC 2025) over every way of sharing a counter that Remus has, side by side on one simulated fabric:
 * RDMA fetch-and-add, ALock, the spin lock, MCS, delegation to the counter's trustee, and the wait-free
 * universal construction ({@link io.remus.bench.object.SharingExperiment}). One run per thread count,
 * each way in turn on its own counters; every counter's final value is checked against the increments
 * applied to it. By default every node runs in this process: on the simulator (default, with the ConnectX-5
 * cost model) or on verbs, where each node has its own memory and queue pairs on the device. <b>One process per
 * node</b> ({@link ClusterSharingExperiment}), by the rule of {@link ClusterOptions}: this process joins a
 * cluster with {@link RemusCluster#join}, runs its node's workers (and trustee), and node 0 prints one report
 * over every node's counts and latency histograms.
 */
@Command(name = "sharing", mixinStandardHelpOptions = true,
        description = {"Every worker picks a counter (uniform or zipfian), increments it and reads the result, "
                + "implemented as faa, alock, spin, mcs, delegated and waitfree on the same fabric (sim or verbs): "
                + "throughput, latency p50/p99, RDMA operations and round trips per increment.",
                "",
                ClusterOptions.RULE + "and its trustee on the counters node 0 creates, and node 0 prints one report over "
                        + "every node's counts and latency histograms; the other nodes print nothing. Give every process "
                        + "the same flags.",
                ""})
public final class SharingCommand extends WorkloadExperimentCommand {

    /** The command as the {@code remus} tool makes it: the process's environment, the join as its arguments say. */
    public SharingCommand() {
        this(System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    SharingCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
    }

    @Mixin
    SharedOptions.WaysOption waysOption = new SharedOptions.WaysOption("faa,alock,spin,mcs,delegated,waitfree");

    @Option(names = "--counters", paramLabel = "N", defaultValue = "64",
            description = "Counters, 1..1048576, counter i on node i mod nodes (default ${DEFAULT-VALUE}).")
    int counters;

    @Mixin
    JsonOption jsonOption;

    @Override
    int callInProcess() throws IOException, InterruptedException {
        List<SharingConfig> configs = configs();
        ExperimentFabric fabric = fabricFlags.fabric(this::usage);
        SimTime time = simTime(fabric);
        new OutputFiles().add("--plot", runOptions.plot.plot).check();
        List<String> notes = new ArrayList<>();
        List<SharingRun> runs = SharingRunner.run(fabric.fabrics(notes, time::simOptions), configs, time);
        notes.add(ClusterJoin.hostLoad());
        report(fabric.kind(), configs.getFirst(), notes, runs, fabric.title(), fabric.costName(), time.label());
        return 0;
    }

    /** The cluster mode: runs every thread count and way with the other processes, and reports on node 0. */
    @Override
    int callAsNode(ClusterJoin join) throws IOException, InterruptedException {
        List<SharingConfig> configs = configs(join.size());
        new OutputFiles().add("--plot", runOptions.plot.plot).check();
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts, per-counter increments and latency histograms");
            List<SharingRun> runs = SharingRunner.runAsNode(new ClusterSharingExperiment(joined, join.timeout()), configs);
            if (joined.nodeId() == 0) {
                report(kindOf(joined), configs.getFirst(), notes, runs, joined.fabric().name(), null, null);
            }
        }
        return 0;
    }

    /** @param time {@link SimTime#label()}: how the figures were timed, or null for the wall clock */
    private void report(FabricKind kind, SharingConfig first, List<String> notes, List<SharingRun> runs, String title,
                        String cost, String time) throws IOException {
        notes.addAll(first.notes());
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOption.json) {
            SharingFormat.writeJson(first, kind.name().toLowerCase(Locale.ROOT), cost, durationOption.seconds, notes, runs,
                    time, out);
        } else {
            SharingFormat.writeHuman(first, notes, runs, time, out);
        }
        if (runOptions.plot.plot != null) {
            SharingPlot.write("remus experiment sharing, " + title + ", " + first.nodes()
                    + " nodes, " + first.counters() + " counters, " + durationOption.seconds + " s"
                    + (time == null ? "" : ", " + time), runs, runOptions.plot.plot);
            spec.commandLine().getErr().println("wrote " + runOptions.plot.plot);
            spec.commandLine().getErr().flush();
        }
    }

    /**
     * Validates the flags into one configuration per thread count, in the order given.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is bad
     */
    List<SharingConfig> configs() {
        return configs(runOptions.nodeCount.nodes);
    }

    /**
     * {@link #configs()} for a cluster of {@code nodeCount} nodes.
     *
     * @param nodeCount {@code --nodes}, or the cluster's size with one process per node
     * @return the configurations
     */
    List<SharingConfig> configs(int nodeCount) {
        fabricFlags.fabric(this::usage);
        List<SharingWay> wayList = engineRule(() -> CommaList.parse(waysOption.ways, SharingWay::parse), "--ways");
        List<Integer> threadList = engineRule(() -> CommaList.parse(threadsOption.threads, CommaList::wholeNumber), "--threads");
        ExperimentFlags flags = flags();
        return engineRule(() -> flags.sharing(wayList, threadList, nodeCount, counters), null);
    }
}
