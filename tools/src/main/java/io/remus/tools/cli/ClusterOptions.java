package io.remus.tools.cli;

import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The one-process-per-node mode of the multi-node benchmarks ({@code remus bench lock},
 * {@code remus bench reclaim}), a picocli mixin: its flags, the rule that turns it on, and the join.
 * The join arguments are the arguments the command does not know, which it collects with
 * {@code @Unmatched} (picocli takes that annotation on the command itself, not on a mixin).
 * The mode is on when {@code --cluster} is given, or, unless {@code --no-cluster} is, when an argument
 * the command does not know is given (it is a {@link RemusCluster} join argument such as
 * {@code --node-id=N}, {@code --rendezvous=DIR}, {@code --hostfile=FILE}, {@code --seg-size=4M}), or
 * when the environment holds a launcher's rank with a size above 1 ({@code OMPI_COMM_WORLD_RANK}/
 * {@code _SIZE}, {@code SLURM_PROCID}/{@code SLURM_NTASKS}, {@code PMI_RANK}/{@code PMI_SIZE}).
 */
public final class ClusterOptions {
    /** The rule in words, for a command's description. */
    static final String RULE = "Runs every node in this JVM, unless one process per node is asked for: --cluster, or (without "
            + "--no-cluster) a RemusCluster join argument this command does not know (--node-id=N, "
            + "--rendezvous=DIR|tcp://HOST:PORT, --hostfile=FILE, --address=HOST, --seg-size=SIZE, ...), or a "
            + "launcher's rank with a size above 1 in the environment (mpirun: OMPI_COMM_WORLD_RANK/SIZE; srun: "
            + "SLURM_PROCID/SLURM_NTASKS; PMI_RANK/PMI_SIZE). Then this process is one node: it joins the "
            + "cluster (RemusCluster.join with those arguments and the environment), runs --threads workers, ";

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--cluster", negatable = true,
            description = "Run as one node of a cluster of processes (see above); --no-cluster: every node in this JVM "
                    + "even under a launcher (default: by the rule above).")
    Boolean cluster;

    @Option(names = "--join-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "One process per node: how long joining, and each wait for the other nodes during a run, may take "
                    + "(default ${DEFAULT-VALUE}).")
    double joinTimeoutSeconds;

    /**
     * @param environment the process's environment (a launcher's rank)
     * @param joinArgs    the arguments the command does not know
     * @return whether this process runs as one node of a cluster of processes: {@code --cluster}, or
     *         (without {@code --no-cluster}) join arguments, or a launcher's rank with a size above 1
     *         ({@link ClusterJoin#launched})
     */
    boolean on(Map<String, String> environment, List<String> joinArgs) {
        return cluster != null ? cluster : !joinArgs.isEmpty() || ClusterJoin.launched(environment);
    }

    /**
     * Every node in this JVM: refuses join arguments, which only one process per node takes.
     *
     * @param joinArgs the arguments the command does not know
     * @throws ParameterException naming them when there are some
     */
    void refuseJoinArgs(List<String> joinArgs) {
        if (!joinArgs.isEmpty()) {
            throw usage("unknown option(s) " + joinArgs + " (join arguments are taken only with one process per node, "
                    + "not with --no-cluster)");
        }
    }

    /**
     * Checks the flags of one process per node and resolves the join's configuration.
     *
     * @param joinArgs    the arguments the command does not know, for {@link RemusCluster}
     * @param fabric      {@code --fabric}, or null; {@link FabricKind#SHM} joins with {@code --fabric=shm}
     *                    (its directory from the join argument {@code --shm.dir} or {@code REMUS_SHM_DIR})
     * @param device      {@code -d}, or null
     * @param environment what {@link RemusCluster} reads besides the arguments
     * @param setup       applied to the join's builder last (e.g. a shared simulator fabric)
     * @param nodes       {@code --nodes}, which must be the cluster's size when it was given
     * @return the join, not yet made
     * @throws ParameterException for {@code --fabric sim}, a bad {@code --join-timeout}, join arguments that
     *                            {@link RemusCluster} refuses, or {@code --nodes} other than the cluster's size
     */
    ClusterJoin prepare(List<String> joinArgs, FabricKind fabric, String device, Map<String, String> environment,
                 UnaryOperator<RemusCluster.Builder> setup, int nodes) {
        if (fabric == FabricKind.SIM) {
            throw usage("--fabric sim runs every node in this JVM; one process per node needs --fabric verbs (or --no-cluster)");
        }
        if (!(joinTimeoutSeconds > 0) || joinTimeoutSeconds > 3600) {
            throw usage("--join-timeout must be in (0, 3600] seconds, got " + joinTimeoutSeconds);
        }
        if (fabric == FabricKind.SHM) {
            joinArgs = new java.util.ArrayList<>(joinArgs);
            joinArgs.add("--fabric=shm");
        }
        ClusterJoin join;
        try {
            join = new ClusterJoin(joinArgs, Duration.ofNanos(Math.round(joinTimeoutSeconds * 1e9)), device, environment, setup);
        } catch (BadArgumentException e) {
            throw usage("options " + mixee.qualifiedName() + " does not know go to "
                    + "RemusCluster.join, which refuses " + joinArgs + ": " + e.getMessage());
        }
        int size = join.size();
        if (mixee.commandLine().getParseResult().hasMatchedOption("--nodes") && nodes != size) {
            throw usage("--nodes " + nodes + ", but the cluster has " + size + " nodes (one per process; leave --nodes out)");
        }
        return join;
    }

    private ParameterException usage(String message) {
        return new ParameterException(mixee.commandLine(), message);
    }
}
