package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * Reads a {@link ClusterConfig} from a properties file, command-line arguments or a launcher's
 * environment. All three use the same keys:
 *
 * <pre>
 * node.id            nodes (comma list of host[:port])           hostfile (path)
 * memory.nodes (a-b) compute.nodes (a-b)
 * segment.size (4K, 1M, 1G)                  segment.count          qp.lanes
 * qp.lane.policy (round_robin | by_address)  threads.per.node       ops.in.flight
 * buffer.size        wrs.per.batch           allocation.policy (round_robin | random | local_first)
 * timeout.ms (milliseconds, at most a day, or "forever")           node.count (nodes named node0..)
 * </pre>
 *
 * <p>On the command line Remus' own flag names are accepted for the same concepts:
 * {@code --node-id} ({@code node.id}), {@code --seg-size} ({@code segment.size}), {@code --qp-lanes}
 * ({@code qp.lanes}), {@code --alloc-pol} ({@code allocation.policy}), {@code --cn-threads}
 * ({@code threads.per.node}); see {@link #canonicalKey}.
 *
 * <p>The node list comes from {@code nodes} or from a {@link Hostfile} named by {@code hostfile},
 * not both, nor with {@code node.count}, in one source; its entries are {@link NodeAddress}es. Keys
 * not given keep the builder's defaults. Unknown keys, bad values, a key given twice among the
 * arguments and conflicting keys are {@link BadArgumentException}s.
 */
public final class ConfigSources {
    private static final Map<String, String> ALIASES = Map.of(
            "node-id", "node.id",
            "seg-size", "segment.size",
            "qp-lanes", "qp.lanes",
            "alloc-pol", "allocation.policy",
            "cn-threads", "threads.per.node");

    private static final Set<String> KEYS = Set.of("node.id", "node.count", "nodes", "hostfile", "memory.nodes",
            "compute.nodes", "segment.size", "segment.count", "qp.lanes", "qp.lane.policy", "threads.per.node",
            "ops.in.flight", "buffer.size", "wrs.per.batch", "allocation.policy", "timeout.ms");

    private ConfigSources() {
    }

    /** {@return the configuration keys (not the aliases)} */
    public static Set<String> keys() {
        return KEYS;
    }

    /**
     * Resolves an argument name to its configuration key.
     *
     * @param name a key as written after {@code --}: one of the keys above, or one of Remus' flag
     *             names ({@code node-id}, {@code seg-size}, {@code qp-lanes}, {@code alloc-pol},
     *             {@code cn-threads})
     * @return the configuration key it stands for ({@code name} itself when it is no alias)
     */
    public static String canonicalKey(String name) {
        Objects.requireNonNull(name, "name");
        return ALIASES.getOrDefault(name, name);
    }

    /**
     * Layers the sources a launched process has, each key taken from the first that gives it:
     * {@code args} ({@code --key=value}, aliases allowed), then {@code properties} (e.g. a
     * {@code .properties} file), then {@code env} (as {@link #fromEnvironment}). The node list is
     * one key in every layer: {@code nodes} or {@code hostfile} (not both in one layer); a higher
     * layer's list replaces a lower one's.
     *
     * @param env        the environment
     * @param properties the keys above; empty for none
     * @param args       {@code --key=value} arguments with the keys above
     * @return the configuration
     * @throws BadArgumentException naming the key or value that is unknown, malformed or conflicting
     */
    public static ClusterConfig layered(Map<String, String> env, Properties properties, List<String> args) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(args, "args");
        fromEnvironment(env);
        ClusterConfig.Builder b = environmentBuilder(env);
        requireOneNodeList(properties.containsKey("nodes"), properties.containsKey("hostfile"),
                properties.containsKey("node.count"));
        for (String key : properties.stringPropertyNames()) {
            apply(b, key, properties.getProperty(key));
        }
        applyArgs(b, args.toArray(String[]::new));
        return b.build();
    }

    /**
     * Reads a configuration from a properties file.
     *
     * @param file a {@code .properties} file with the keys above
     * @return the configuration
     */
    public static ClusterConfig fromFile(Path file) {
        Objects.requireNonNull(file, "file");
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new BadArgumentException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        return fromProperties(p);
    }

    /**
     * Reads a configuration from properties.
     *
     * @param properties the keys above
     * @return the configuration
     */
    public static ClusterConfig fromProperties(Properties properties) {
        Objects.requireNonNull(properties, "properties");
        ClusterConfig.Builder b = ClusterConfig.builder();
        requireOneNodeList(properties.containsKey("nodes"), properties.containsKey("hostfile"),
                properties.containsKey("node.count"));
        for (String key : properties.stringPropertyNames()) {
            apply(b, key, properties.getProperty(key));
        }
        return b.build();
    }

    /**
     * Reads a configuration from command-line arguments.
     *
     * @param args {@code --key=value} arguments with the keys above
     * @return the configuration
     */
    public static ClusterConfig fromArgs(String... args) {
        Objects.requireNonNull(args, "args");
        for (int i = 0; i < args.length; i++) {
            Objects.requireNonNull(args[i], "args[" + i + "]");
        }
        ClusterConfig.Builder b = ClusterConfig.builder();
        applyArgs(b, args);
        return b.build();
    }

    private static void applyArgs(ClusterConfig.Builder b, String... args) {
        for (int i = 0; i < args.length; i++) {
            Objects.requireNonNull(args[i], "args[" + i + "]");
        }
        Map<String, String> given = new java.util.LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new BadArgumentException("expected --key=value, got '" + arg + "'");
            }
            String key = canonicalKey(arg.substring(2, eq));
            String before = given.putIfAbsent(key, arg.substring(eq + 1));
            if (before != null) {
                throw new BadArgumentException(key + " is given twice: '" + before + "' and '" + arg.substring(eq + 1)
                        + "' (" + arg + ")");
            }
        }
        requireOneNodeList(given.containsKey("nodes"), given.containsKey("hostfile"), given.containsKey("node.count"));
        given.forEach((key, value) -> apply(b, key, value));
    }

    /**
     * Reads {@code REMUS_*} variables (the keys above upper-cased with {@code _} for {@code .}, e.g.
     * {@code REMUS_SEGMENT_SIZE}) and takes the node id and node count from the launcher when one
     * started the process: Slurm ({@code SLURM_PROCID}/{@code SLURM_NTASKS}), Open MPI
     * ({@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}) or PMI ({@code PMI_RANK}/{@code PMI_SIZE}).
     * The node list with addresses comes from {@code REMUS_NODES} (comma list of
     * {@code host[:port]}) or from the hostfile named by {@code REMUS_HOSTFILE}; under a launcher
     * its length must equal the launcher's size. Without either, the launcher's size names nodes
     * {@code node0..} (enough for one process, not for a verbs cluster), except under Slurm, where
     * the node list comes from Slurm's compressed host list ({@code SLURM_STEP_NODELIST}, else
     * {@code SLURM_JOB_NODELIST}; see {@link SlurmHostList}) with tasks placed in blocks as
     * {@code SLURM_STEP_TASKS_PER_NODE} (else {@code SLURM_TASKS_PER_NODE}) says, one per host
     * when neither is set; tasks on one host get consecutive default ports. Without memory/compute
     * ranges every node is both. Where the variables of several launchers are set (e.g. Slurm's
     * inherited by an {@code mpirun} inside an allocation), they must give the same rank and size,
     * and {@code REMUS_NODE_ID}, where set under a launcher, must equal its rank.
     *
     * @param env the environment, e.g. {@code System.getenv()}
     * @return the configuration
     * @throws BadArgumentException naming the variable and value that is malformed, out of range or
     *                              contradicts another
     */
    public static ClusterConfig fromEnvironment(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        ClusterConfig c = environmentBuilder(env).build();
        String launcherSize = launcherSizeKey(env);
        if (launcherSize != null) {
            int size = parseInt(launcherSize, env.get(launcherSize));
            if (c.nodes().size() != size) {
                throw new BadArgumentException(launcherSize + " is " + size + " but the node list has " + c.nodes().size()
                        + " entries");
            }
        }
        return c;
    }

    private static String launcherSizeKey(Map<String, String> env) {
        String[] l = launcher(env);
        return l == null ? null : l[1];
    }

    /**
     * {@return the rank and size variables of the launcher that started the process (the first of
     *         {@link #LAUNCHERS} whose two variables are set), or null}
     * @throws BadArgumentException when several launchers' variables are set and give different
     *                              ranks or sizes, or {@code REMUS_NODE_ID} differs from the rank
     */
    private static String[] launcher(Map<String, String> env) {
        String[] first = null;
        for (String[] l : LAUNCHERS) {
            if (!env.containsKey(l[0]) || !env.containsKey(l[1])) {
                continue;
            }
            if (first == null) {
                first = l;
            } else if (parseInt(l[0], env.get(l[0])) != parseInt(first[0], env.get(first[0]))
                    || parseInt(l[1], env.get(l[1])) != parseInt(first[1], env.get(first[1]))) {
                throw new BadArgumentException("launcher environments disagree: " + variables(env, first) + " but "
                        + variables(env, l) + "; unset the variables of the launcher that did not start this process");
            }
        }
        String remusId = env.get("REMUS_NODE_ID");
        if (first != null && remusId != null && parseInt("REMUS_NODE_ID", remusId) != parseInt(first[0], env.get(first[0]))) {
            throw new BadArgumentException("REMUS_NODE_ID=" + remusId.strip() + " disagrees with the launcher's "
                    + first[0] + "=" + env.get(first[0]).strip() + "; under a launcher the node id is its rank");
        }
        return first;
    }

    private static String variables(Map<String, String> env, String[] launcher) {
        return launcher[0] + "=" + env.get(launcher[0]).strip() + " " + launcher[1] + "=" + env.get(launcher[1]).strip();
    }

    private static final String[][] LAUNCHERS = {{"SLURM_PROCID", "SLURM_NTASKS"},
            {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}};

    private static ClusterConfig.Builder environmentBuilder(Map<String, String> env) {
        ClusterConfig.Builder b = ClusterConfig.builder();
        String[] launcher = launcher(env);
        String launcherSize = launcher == null ? null : launcher[1];
        int size = 0;
        if (launcher != null) {
            size = parseInt(launcher[1], env.get(launcher[1]));
            b.nodeCount(size).nodeId(parseInt(launcher[0], env.get(launcher[0])));
        }
        boolean nodeList = env.containsKey("REMUS_NODES") || env.containsKey("REMUS_HOSTFILE");
        requireOneNodeList(env.containsKey("REMUS_NODES"), env.containsKey("REMUS_HOSTFILE"), env.containsKey("REMUS_NODE_COUNT"));
        if (!nodeList && "SLURM_NTASKS".equals(launcherSize) && slurmVariable(env, "NODELIST") != null) {
            b.nodes(slurmTaskHosts(env, size));
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("REMUS_")) {
                apply(b, e.getKey().substring(6).toLowerCase(Locale.ROOT).replace('_', '.'), e.getValue());
            }
        }
        return b;
    }

    private static String slurmVariable(Map<String, String> env, String name) {
        String step = env.get("SLURM_STEP_" + name);
        return step != null ? step : env.get("SLURM_JOB_" + name);
    }

    private static List<String> slurmTaskHosts(Map<String, String> env, int tasks) {
        List<String> hosts = SlurmHostList.expand(slurmVariable(env, "NODELIST"));
        String perNode = env.containsKey("SLURM_STEP_TASKS_PER_NODE") ? env.get("SLURM_STEP_TASKS_PER_NODE")
                : env.get("SLURM_TASKS_PER_NODE");
        if (perNode == null) {
            return hosts;
        }
        List<Integer> counts = SlurmHostList.expandTasksPerNode(perNode);
        if (counts.size() != hosts.size()) {
            throw new BadArgumentException("Slurm tasks-per-node list '" + perNode + "' has " + counts.size()
                    + " entries but the node list has " + hosts.size() + " hosts");
        }
        List<String> taskHosts = new ArrayList<>(tasks);
        for (int h = 0; h < hosts.size(); h++) {
            for (int t = 0; t < counts.get(h); t++) {
                taskHosts.add(hosts.get(h));
            }
        }
        return List.copyOf(taskHosts);
    }

    private static void apply(ClusterConfig.Builder b, String key, String value) {
        Objects.requireNonNull(value, key);
        String v = value.trim();
        switch (key) {
            case "node.id" -> b.nodeId(parseInt(key, v));
            case "node.count" -> b.nodeCount(parseInt(key, v));
            case "nodes" -> b.nodes(List.copyOf(Arrays.stream(v.split(",")).map(String::trim).toList()));
            case "hostfile" -> b.nodes(Hostfile.read(Path.of(v)));
            case "memory.nodes" -> b.memoryNodes(NodeRange.parse(v));
            case "compute.nodes" -> b.computeNodes(NodeRange.parse(v));
            case "segment.size" -> b.segmentSize(parseSize(key, v));
            case "segment.count" -> b.segmentCount(parseInt(key, v));
            case "qp.lanes" -> b.qpLanesPerPeer(parseInt(key, v));
            case "qp.lane.policy" -> b.lanePolicy(parseEnum(LanePolicy.class, key, v));
            case "threads.per.node" -> b.threadsPerNode(parseInt(key, v));
            case "ops.in.flight" -> b.opsInFlightPerThread(parseInt(key, v));
            case "buffer.size" -> b.bufferSizePerThread(parseIntSize(key, v));
            case "wrs.per.batch" -> b.wrsPerBatch(parseInt(key, v));
            case "allocation.policy" -> b.allocationPolicy(parseEnum(AllocationPolicy.class, key, v));
            case "timeout.ms" -> b.operationTimeout(Timeouts.parseMillis(key, v));
            default -> throw new BadArgumentException("unknown configuration key '" + key + "'");
        }
    }

    private static void requireOneNodeList(boolean nodes, boolean hostfile, boolean count) {
        if (nodes && hostfile) {
            throw new BadArgumentException("give the node list either as nodes or as a hostfile, not both");
        }
        if (count && (nodes || hostfile)) {
            throw new BadArgumentException("node.count and " + (nodes ? "nodes" : "hostfile") + " both give the node "
                    + "list: give one");
        }
    }

    private static int parseInt(String key, String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new BadArgumentException(key + ": '" + v + "' is not an integer");
        }
    }

    static long parseSize(String key, String v) {
        String t = v.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            unit = switch (t.charAt(t.length() - 1)) {
                case 'K' -> 1L << 10;
                case 'M' -> 1L << 20;
                default -> 1L << 30;
            };
            t = t.substring(0, t.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(t), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new BadArgumentException(key + ": '" + v + "' is not a size (e.g. 4096, 64K, 1M, 1G)");
        }
    }

    private static int parseIntSize(String key, String v) {
        long size = parseSize(key, v);
        if (size < Integer.MIN_VALUE || size > Integer.MAX_VALUE) {
            throw new BadArgumentException(key + ": '" + v + "' is more than " + Integer.MAX_VALUE + " bytes");
        }
        return (int) size;
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String key, String v) {
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadArgumentException(key + ": '" + v + "' is not one of " + Arrays.toString(type.getEnumConstants()));
        }
    }
}
