package io.remus.tools.cli;

import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A command that runs every node in this process or, by {@link ClusterOptions}' rule, this process as one node
 * of a cluster ({@code bench ds}, {@code lock}, {@code reclaim}, {@code experiment sharing}, {@code kv}): what
 * the rule and the join read. Each command declares its {@link ClusterOptions} mixin itself, after its own
 * options (picocli lists a superclass's options first).
 */
abstract class ClusterCapableCommand implements Callable<Integer> {
    /** The environment the launcher rule and {@link RemusCluster} read. */
    final Map<String, String> environment;

    /** Applied to the join's builder last (e.g. a shared simulator fabric in tests). */
    final UnaryOperator<RemusCluster.Builder> joinSetup;

    @Spec
    CommandSpec spec;

    /** The arguments the join takes (e.g. {@code --node-id}), which picocli leaves to {@link ClusterOptions}. */
    @Unmatched
    List<String> joinArgs = new ArrayList<>();

    /**
     * @param environment the environment the launcher rule and {@link RemusCluster} read (tests run several
     *                    commands in one JVM as the processes of one cluster)
     * @param joinSetup   applied to the join's builder last
     */
    ClusterCapableCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        this.environment = Map.copyOf(environment);
        this.joinSetup = joinSetup;
    }

    /** @return the command's cluster flags */
    abstract ClusterOptions clusterOptions();

    /** @return whether this process runs as one node of a cluster of processes */
    final boolean clusterMode() {
        return clusterOptions().on(environment, joinArgs);
    }

    /**
     * @param simCost {@code --sim-cost}, or null
     * @throws ParameterException when it is given: it is for the simulator, in one JVM
     */
    final void refuseSimCost(String simCost) {
        if (simCost != null) {
            throw usage("--sim-cost is for the simulator, in one JVM; not with one process per node");
        }
    }

    /** @param option a flag's name @return whether the command line gave it */
    final boolean matched(String option) {
        picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption(option);
    }

    /**
     * @param rule an engine's rule: a check, a parse or a configuration's construction
     * @param flag the flag whose value it takes, named before the rule's message, or null where the message names it
     * @param <T>  what the rule returns
     * @return what it returns
     * @throws ParameterException with the rule's message when it refuses ({@link BadArgumentException})
     */
    final <T> T engineRule(Supplier<T> rule, String flag) {
        try {
            return rule.get();
        } catch (BadArgumentException e) {
            throw usage(flag == null ? e.getMessage() : flag + ": " + e.getMessage());
        }
    }

    /** @param message what is wrong @return the usage error of this command */
    final ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
