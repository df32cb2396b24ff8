package io.remus.bench.perftest;

import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.ConfigSources;
import io.remus.core.error.BadArgumentException;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A join of one process per node to a {@link RemusCluster}: its arguments, environment, device and timeout,
 * its configuration resolved when made, the cluster joined by {@link #join()}. The engines run their node of a
 * benchmark on the joined cluster.
 */
public final class ClusterJoin {
    /** The launchers' rank and size variables: Open MPI's, Slurm's, PMI's. */
    private static final List<String[]> LAUNCHERS = List.of(new String[]{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
            new String[]{"SLURM_PROCID", "SLURM_NTASKS"}, new String[]{"PMI_RANK", "PMI_SIZE"});
    private final Duration timeout;
    private final String device;
    private final Map<String, String> environment;
    private final UnaryOperator<RemusCluster.Builder> setup;
    private final List<String> args;
    private final ClusterConfig resolved;

    /**
     * Resolves the join's configuration.
     *
     * @param joinArgs    the join arguments, for {@link RemusCluster.Builder#args}
     * @param timeout     the join's timeout and each wait for the other nodes during a run
     * @param device      the RDMA device, or null for the cluster configuration's
     * @param environment what {@link RemusCluster} reads besides the arguments
     * @param setup       applied to the join's builder last (e.g. a shared simulator fabric)
     * @throws BadArgumentException when {@link RemusCluster} refuses the arguments or the environment
     */
    public ClusterJoin(List<String> joinArgs, Duration timeout, String device, Map<String, String> environment,
                       UnaryOperator<RemusCluster.Builder> setup) {
        this.args = new ArrayList<>(joinArgs);
        this.timeout = timeout;
        this.device = device;
        this.environment = environment;
        this.setup = setup;
        this.resolved = builder().resolveConfig();
    }

    /**
     * @param environment a process's environment
     * @return whether it holds a launcher's rank with a size above 1 ({@code OMPI_COMM_WORLD_RANK}/{@code _SIZE},
     *         {@code SLURM_PROCID}/{@code SLURM_NTASKS}, {@code PMI_RANK}/{@code PMI_SIZE}): this process was
     *         started as one of several
     */
    public static boolean launched(Map<String, String> environment) {
        for (String[] launcher : LAUNCHERS) {
            String size = environment.get(launcher[1]);
            if (environment.containsKey(launcher[0]) && size != null && size.strip().matches("[0-9]{1,9}")
                    && Integer.parseInt(size.strip()) > 1) {
                return true;
            }
        }
        return false;
    }

    /** @return the join's timeout and each wait for the other nodes during a run */
    public Duration timeout() {
        return timeout;
    }

    /** @return the cluster's node count */
    public int size() {
        return resolved.nodes().size();
    }

    /**
     * Asks for at least {@code bytes} of memory per node when neither the join arguments nor the
     * environment name a segment size, a segment count or a configuration file.
     *
     * @param bytes the memory a node needs
     */
    public void ensureSegment(long bytes) {
        if (!given("segment.size", "segment.count", "config") && resolved.segmentSize() * resolved.segmentCount() < bytes) {
            args.add("--segment.size=" + bytes);
        }
    }

    /**
     * Joins the cluster.
     *
     * @return the joined cluster
     * @throws io.remus.core.error.RemusException naming the peers when the join fails or times out
     */
    public RemusCluster join() {
        return builder().join();
    }

    /**
     * @param joined the joined cluster
     * @param what   what node 0 aggregates, e.g. "counts and latency histograms"
     * @return the notes every report of one process per node starts with
     */
    public List<String> notes(RemusCluster joined, String what) {
        List<String> notes = new ArrayList<>();
        notes.add("one process per node: " + joined.size() + " nodes, node 0 aggregates every node's " + what
                + ", sent over RDMA");
        notes.add("fabric " + joined.fabric().name() + " (RemusCluster.join)");
        notes.add(hostLoad() + " (node 0)");
        return notes;
    }

    /** @return this host's CPUs and load average, for a report's notes */
    public static String hostLoad() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return String.format(Locale.ROOT, "host: %d CPUs, load average %.2f at start",
                Runtime.getRuntime().availableProcessors(), load);
    }

    private RemusCluster.Builder builder() {
        RemusCluster.Builder b = RemusCluster.builder().args(args.toArray(String[]::new)).environment(environment)
                .joinTimeout(timeout);
        if (device != null) {
            b.device(device);
        }
        return setup.apply(b);
    }

    private boolean given(String... keys) {
        List<String> wanted = List.of(keys);
        for (String a : args) {
            if (a.startsWith("--") && wanted.contains(ConfigSources.canonicalKey(a.substring(2).split("=", 2)[0]))) {
                return true;
            }
        }
        for (String key : keys) {
            if (environment.containsKey("REMUS_" + key.replace('.', '_').toUpperCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }
}
