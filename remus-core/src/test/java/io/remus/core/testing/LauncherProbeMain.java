package io.remus.core.testing;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.ConfigSources;
import io.remus.core.error.BadArgumentException;

import io.remus.verbs.Access;
import io.remus.verbs.Context;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.ProtectionDomain;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * One process of a launcher run ({@code mpirun}, {@code srun}): reads this process's
 * configuration with {@link ConfigSources#fromEnvironment} and prints one line with the node id
 * and node count it parsed, beside the launcher's own rank and size variables, so that a script
 * can check that every rank of the launch reached the project's parser exactly once.
 *
 * <p>Output (one line on standard output, exit status 0):
 * <pre>
 * launcher-probe launcher=ompi rank=1 size=3 raw_rank=1 raw_size=3 node=node1:18516
 * </pre>
 * {@code launcher} is {@code slurm}, {@code ompi}, {@code pmi} or {@code none}; {@code rank} and
 * {@code size} are the parsed {@link ClusterConfig#nodeId()} and node count; {@code raw_*} are the
 * launcher's variables as given. A configuration the parser refuses prints
 * {@code launcher-probe ... error=...} on standard error and exits 2. With {@code --env-dir DIR},
 * the launcher's variables ({@code SLURM_*}, {@code OMPI_*}, {@code PMI_*}, {@code PMIX_*}) are
 * also written to {@code DIR/<launcher>-rank<rank>.env}, sorted, one {@code NAME=value} per line:
 * the environment a real launcher gives, for capturing as a test fixture (one file per process,
 * so that the processes' outputs cannot interleave). With {@code --device NAME}, each process also
 * opens that RDMA device, allocates a protection domain and registers 1 MiB for local write and
 * remote read, write and atomics (what a node does first; under a launcher it can fail on the
 * locked-memory limit the launcher passes on), and the line ends with
 * {@code device=NAME registered=1048576}; a failure there prints {@code ... error=...} on standard
 * error and exits 3.
 */
public final class LauncherProbeMain {
    private LauncherProbeMain() {
    }

    /**
     * @param args {@code [--env-dir DIR] [--device NAME]}
     */
    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        String[][] launchers = {{"slurm", "SLURM_PROCID", "SLURM_NTASKS"},
                {"ompi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"pmi", "PMI_RANK", "PMI_SIZE"}};
        String launcher = "none";
        String rawRank = "-";
        String rawSize = "-";
        for (String[] l : launchers) {
            if (env.containsKey(l[1]) && env.containsKey(l[2])) {
                launcher = l[0];
                rawRank = env.get(l[1]);
                rawSize = env.get(l[2]);
                break;
            }
        }
        ClusterConfig config;
        try {
            config = ConfigSources.fromEnvironment(env);
        } catch (BadArgumentException e) {
            System.err.println("launcher-probe launcher=" + launcher + " raw_rank=" + rawRank + " raw_size=" + rawSize
                    + " error=" + e.getMessage());
            System.exit(2);
            return;
        }
        String line = "launcher-probe launcher=" + launcher + " rank=" + config.nodeId() + " size=" + config.nodes().size()
                + " raw_rank=" + rawRank + " raw_size=" + rawSize + " node=" + config.nodeAddress(config.nodeId());
        String envDir = null;
        String device = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 < args.length && args[i].equals("--env-dir")) {
                envDir = args[i + 1];
            } else if (i + 1 < args.length && args[i].equals("--device")) {
                device = args[i + 1];
            } else {
                System.err.println("launcher-probe: usage: LauncherProbeMain [--env-dir DIR] [--device NAME], not "
                        + String.join(" ", args));
                System.exit(2);
                return;
            }
        }
        if (device != null) {
            try {
                line += " device=" + device + " " + registerOneMegabyte(device);
            } catch (RuntimeException e) {
                System.err.println(line + " device=" + device + " error=" + e);
                System.exit(3);
                return;
            }
        }
        if (envDir != null) {
            StringBuilder vars = new StringBuilder();
            for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
                String k = e.getKey();
                if (k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("PMI_") || k.startsWith("PMIX_")) {
                    vars.append(k).append('=').append(e.getValue()).append('\n');
                }
            }
            Path file = Path.of(envDir, launcher + "-rank" + config.nodeId() + ".env");
            try {
                Files.writeString(file, vars);
            } catch (IOException e) {
                System.err.println("launcher-probe: cannot write " + file + ": " + e.getMessage());
                System.exit(2);
                return;
            }
        }
        System.out.println(line);
        System.out.flush();
    }

    /** Opens the device, allocates a protection domain and registers 1 MiB: what every node does first. */
    private static String registerOneMegabyte(String device) {
        try (Arena arena = Arena.ofConfined();
             Context context = Context.open(device);
             ProtectionDomain pd = context.allocateProtectionDomain();
             MemoryRegion mr = pd.registerMemory(arena.allocate(1 << 20, 4096), Access.LOCAL_WRITE, Access.REMOTE_READ,
                     Access.REMOTE_WRITE, Access.REMOTE_ATOMIC)) {
            return "registered=" + mr.length();
        }
    }
}
