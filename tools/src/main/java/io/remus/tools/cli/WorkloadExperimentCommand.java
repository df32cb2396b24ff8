package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.ExperimentFlags;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.ExperimentFabric;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.RemusCluster;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What {@code remus experiment kv} and {@code remus experiment sharing} share: workers on every node that
 * pick a key (uniform or zipfian, optionally p-local) for {@code --duration}, on the simulator or verbs,
 * every node in this process or, by the rule of {@link ClusterOptions}, one process per node; their common
 * flags, their validation, and the choice between the two modes.
 *
 * <p>{@code --sim-time virtual} (every node in this process, {@code --fabric sim}, a {@code --sim-cost} model that
 * charges time) runs each thread count in the simulator's virtual time ({@link SimTime}): {@code --duration} is
 * virtual time, {@code --seed} also breaks the scheduler's ties, and the report states the clock.
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

    @Mixin
    SimTimeOption simTimeOption;

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
        simTimeOption.clock(true, null, null, runOptions.seed.seed, List.of(), this::usage);
        boolean simAsked = spec.commandLine().getParseResult().hasMatchedOption("--fabric")
                && fabricFlags.fabric(this::usage).kind() == FabricKind.SIM;
        return clusterOptions.prepare(joinArgs, simAsked ? FabricKind.SIM : null, fabricFlags.deviceOption.device,
                environment, joinSetup, runOptions.nodeCount.nodes);
    }

    /**
     * @param fabric the run's fabric, validated
     * @return the runs' clock: the host's, or virtual time under the fabric's cost model with {@code --seed}
     * @throws ParameterException naming {@code --sim-time virtual} and the value it cannot run with: a fabric other
     *                            than sim, or a cost model that charges nothing
     */
    final SimTime simTime(ExperimentFabric fabric) {
        return simTimeOption.clock(false, fabric.kind().name(), fabric.costModel(), runOptions.seed.seed, List.of(),
                this::usage);
    }

    /** @return the flags the experiments' rules apply to, as given */
    final ExperimentFlags flags() {
        return new ExperimentFlags(zipfOption.zipf, localPickOption.oneOrNaN(), durationOption.seconds,
                runOptions.segment.segmentMib, runOptions.seed.seed);
    }

    /**
     * @param joined the joined cluster
     * @return the kind of its fabric
     */
    static FabricKind kindOf(RemusCluster joined) {
        return joined.fabric().name().startsWith("sim") ? FabricKind.SIM : FabricKind.VERBS;
    }
}
