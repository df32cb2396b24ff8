package io.remus.tools.cli;

import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.RemusCluster;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What {@code remus experiment kv} and {@code remus experiment sharing} share: workers on every node that
 * pick a key (uniform or zipfian, optionally p-local) for {@code --duration}, on the simulator or verbs,
 * every node in this process or, by the rule of {@link ClusterOptions}, one process per node; their common
 * flags, their validation, and the choice between the two modes.
 */
abstract class WorkloadExperimentCommand extends ClusterCapableCommand {
    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    ExperimentRunOptions runOptions;

    @Mixin
    SharedOptions.ThreadsOption threadsOption;

    @Mixin
    SharedOptions.ZipfOption zipfOption;

    @Mixin
    SharedOptions.LocalPickOption localPickOption;

    @Mixin
    SharedOptions.DurationOption durationOption = new SharedOptions.DurationOption(2);

    @Mixin
    ExperimentFabricFlags fabricFlags;

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    WorkloadExperimentCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
    }

    @Override
    final ClusterOptions clusterOptions() {
        return clusterOptions;
    }

    @Override
    public final Integer call() throws IOException, InterruptedException {
        if (clusterMode()) {
            return callAsNode(prepareJoin());
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        return callInProcess();
    }

    /**
     * Runs every node in this process and reports.
     *
     * @return the exit code
     * @throws IOException          when an output file cannot be written
     * @throws InterruptedException when interrupted while the workers run
     */
    abstract int callInProcess() throws IOException, InterruptedException;

    /**
     * Joins the cluster, runs this node's workers with the other processes, and reports on node 0.
     *
     * @param join the cluster to join, prepared
     * @return the exit code
     * @throws IOException          when an output file cannot be written
     * @throws InterruptedException when interrupted while the workers run
     */
    abstract int callAsNode(ClusterJoin join) throws IOException, InterruptedException;

    private ClusterJoin prepareJoin() {
        refuseSimCost(fabricFlags.simCostOption.simCost);
        boolean simAsked = spec.commandLine().getParseResult().hasMatchedOption("--fabric")
                && fabricFlags.fabric(this::usage).kind() == FabricKind.SIM;
        return clusterOptions.prepare(joinArgs, simAsked ? FabricKind.SIM : null, fabricFlags.deviceOption.device,
                environment, joinSetup, runOptions.nodeCount.nodes);
    }

    /**
     * @return {@code --duration}, checked together with {@code --segment-mib}
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    final Duration duration() {
        if (!(durationOption.seconds >= 0.01) || durationOption.seconds > 3600) {
            throw usage("--duration must be in [0.01, 3600] seconds, got " + durationOption.seconds);
        }
        if (runOptions.segment.segmentMib < 1 || runOptions.segment.segmentMib > 1024) {
            throw usage("--segment-mib must be 1..1024, got " + runOptions.segment.segmentMib);
        }
        return Duration.ofNanos(Math.round(durationOption.seconds * 1e9));
    }

    /**
     * @param joined the joined cluster
     * @return the kind of its fabric
     */
    static FabricKind kindOf(RemusCluster joined) {
        return joined.fabric().name().startsWith("sim") ? FabricKind.SIM : FabricKind.VERBS;
    }

    /**
     * @param message an engine configuration's message
     * @return it with the shared parameters named by their flags
     */
    static String sharedFlagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("zipfTheta", "--zipf").replace("pLocal", "--p-local").replace("< nodes", "< --nodes");
    }
}
