package io.remus.ds.replicate;

import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ProcessFabric;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.ds.testing.ChildMain;
import io.remus.ds.testing.ChildProcesses;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static io.remus.ds.replicate.ReplicatedLogKilledFollowerOnVerbsTest.line;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.AFTER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.FOLLOWER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.READY_COMMITTED;

/**
 * The replicated log's leader stopped hard across two Soft-RoCE guests ({@code softroce/run-guest-stop}): the three
 * processes of {@link ReplicatedLogKilledLeaderMain}, node 0 (the first leader) alone in one guest, nodes 1 and 2
 * in the other, each on its guest's rxe0. The host stops node 0's guest with QEMU's {@code quit} once node 0 has
 * committed {@value ReplicatedLogKilledLeaderMain#READY_COMMITTED} entries (its file {@code ready}): no shutdown, no
 * FIN, the peer's queue pairs simply stop answering. The host then writes the old leader's {@code COMMITTED} lines
 * (the appends a majority acknowledged) to {@code acked} in the survivors' directory and creates {@code killed}
 * there; the survivors elect node 1, which takes over and commits {@value ReplicatedLogKilledLeaderMain#AFTER} more
 * entries, as in the one-guest test.
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@code node DEVICE NODE_ID HOSTS BASE_PORT DIR CONNECT_MILLIS}: one process; {@code HOSTS} is every node's
 *       host, comma-separated, by node id; the verbs fabric's connect timeout is {@code CONNECT_MILLIS}: it covers
 *       reaching a peer the process never reached (the other guest may still be booting); a survivor's operation on
 *       the stopped node, reached before, reconnects in one attempt bounded by the operation timeout and then backs
 *       off (see {@link io.remus.core.verbs.VerbsFabric}); joining waits up to {@value #JOIN_MINUTES} minutes for
 *       the other guest to boot.</li>
 *   <li>{@code verdict DIR}: after nodes 1 and 2 ended, in the survivors' guest; reads {@code acked},
 *       {@code leader-done}, {@code applied-1}, {@code applied-2} and the report lines in {@code node1.log} and
 *       {@code node2.log}, prints one line {@code VERDICT PASSED ...} or {@code VERDICT FAILED <reason>}, writes it to
 *       {@code verdict} and exits 0 only when it passed. Passed means: the old leader acknowledged entries 0, 1, 2,
 *       ... in order, at least {@value ReplicatedLogKilledLeaderMain#READY_COMMITTED}; node 1 recovered at least those
 *       and committed exactly {@value ReplicatedLogKilledLeaderMain#AFTER} more, undeposed, with no WRITE refused,
 *       node 2 attached and node 0 detached; each survivor applied exactly the entries 0 to that commit count, each
 *       once and in order (so every acknowledged entry is there, at its index), both the same sequence; both elect
 *       node 1 and suspect node 0.</li>
 * </ul>
 * The index service's run over such a log ({@code io.remus.ds.index.IndexGuestStopMain}, the script's default)
 * shares the node mode's arguments ({@link NodeArgs}), the survivors' stack dumps ({@link #startStackDumps}) and the
 * verdict's file ({@link #writeVerdict}).
 */
public final class GuestStopMain {
    /** How long joining waits for the other processes, the other guest's boot included. */
    static final long JOIN_MINUTES = 4;
    /** Seconds between two stack dumps of a survivor after the stop. */
    static final long DUMP_SECONDS = 45;

    private GuestStopMain() {
    }

    /** @param args {@code node ...} or {@code verdict DIR} (the class comment) */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("node")) {
            NodeArgs node = NodeArgs.parse(args);
            ClusterConfig config = ReplicatedLogKilledLeaderMain.config(node.nodeId(), node.hosts(), node.basePort());
            if (node.nodeId() != ReplicatedLogKilledLeaderMain.OLD_LEADER) {
                startStackDumps(node.dir(), node.nodeId());
            }
            ReplicatedLogKilledLeaderMain.run(node.nodeId(), node.dir(), node.builder(config));
        } else if (args.length == 2 && args[0].equals("verdict")) {
            Path dir = Path.of(args[1]);
            System.exit(writeVerdict(dir, () -> check(dir)) ? 0 : 1);
        } else {
            System.out.println("usage: GuestStopMain " + NodeArgs.USAGE + " | verdict DIR; got " + Arrays.toString(args));
            System.exit(2);
        }
    }

    /**
     * A process's arguments in {@code node} mode: {@code node DEVICE NODE_ID HOSTS BASE_PORT DIR CONNECT_MILLIS}.
     *
     * @param device   the RDMA device
     * @param nodeId   this process's node
     * @param hosts    every node's host, by node id
     * @param basePort node 0's port
     * @param dir      the process's directory
     * @param connect  the verbs fabric's connect timeout
     */
    public record NodeArgs(String device, int nodeId, List<String> hosts, int basePort, Path dir, Duration connect) {
        /** How the arguments read. */
        public static final String USAGE = "node DEVICE NODE_ID HOSTS BASE_PORT DIR CONNECT_MILLIS";

        /**
         * @param args the whole command line, {@code node} first
         * @return what it says
         * @throws IllegalArgumentException naming the first bad argument
         */
        public static NodeArgs parse(String[] args) {
            if (args.length != 7 || !args[0].equals("node")) {
                throw new IllegalArgumentException("expected " + USAGE + ", got " + Arrays.toString(args));
            }
            List<String> hosts = Arrays.asList(args[3].split(","));
            int nodeId = number(args[2], "NODE_ID", 0, hosts.size() - 1);
            int basePort = number(args[4], "BASE_PORT", 1, 65535 - hosts.size());
            long connect = number(args[6], "CONNECT_MILLIS", 1, Integer.MAX_VALUE);
            return new NodeArgs(args[1], nodeId, hosts, basePort, Path.of(args[5]), Duration.ofMillis(connect));
        }

        /**
         * @param config this node's configuration
         * @return a builder that joins on the verbs fabric of {@link #device}, waiting up to {@value #JOIN_MINUTES}
         *         minutes for the other processes, with the fabric's connect timeout {@link #connect}
         */
        public RemusCluster.Builder builder(ClusterConfig config) {
            return ProcessFabric.verbs(device).builder(config, Duration.ofMinutes(JOIN_MINUTES),
                    VerbsFabricOptions.cluster(device, config, connect));
        }

        private static int number(String text, String name, int min, int max) {
            int v;
            try {
                v = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " " + text + " is not a number", e);
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + " " + v + " is not in " + min + ".." + max);
            }
            return v;
        }
    }

    /**
     * Runs {@code check} and writes its verdict: prints one line {@code VERDICT PASSED <counts>} or
     * {@code VERDICT FAILED <reason>} and writes it to {@code verdict} in {@code dir}, atomically.
     *
     * @param dir   the directory of the survivors' files
     * @param check the checks: returns the run's counts, throws naming what is wrong
     * @return whether the verdict passed
     * @throws IOException when the verdict cannot be written
     */
    public static boolean writeVerdict(Path dir, Callable<String> check) throws IOException {
        String verdict;
        try {
            verdict = "VERDICT PASSED " + check.call();
        } catch (Throwable e) {
            verdict = "VERDICT FAILED " + e.getMessage();
        }
        System.out.println(verdict);
        Path tmp = dir.resolve("verdict.tmp");
        Files.writeString(tmp, verdict + "\n");
        Files.move(tmp, dir.resolve("verdict"), StandardCopyOption.ATOMIC_MOVE);
        return verdict.startsWith("VERDICT PASSED");
    }

    /**
     * Starts a daemon thread that prints every thread's stack {@value #DUMP_SECONDS} s after the file {@code killed}
     * appeared in {@code dir} and every {@value #DUMP_SECONDS} s after that, while the process runs: where a survivor
     * waits, when it waits long.
     *
     * @param dir    the process's directory
     * @param nodeId this process's node, in the thread's name
     */
    public static void startStackDumps(Path dir, int nodeId) {
        Thread dumper = new Thread(() -> dumpStacksAfterTheStop(dir), "stacks@node" + nodeId);
        dumper.setDaemon(true);
        dumper.start();
    }

    private static void dumpStacksAfterTheStop(Path dir) {
        try {
            ChildMain.awaitFile(dir.resolve("killed"), Duration.ofMinutes(JOIN_MINUTES * 3));
            for (long waited = DUMP_SECONDS; ; waited += DUMP_SECONDS) {
                Thread.sleep(DUMP_SECONDS * 1000);
                StringBuilder b = new StringBuilder("STACKS " + waited + " s after the stop\n");
                Thread.getAllStackTraces().forEach((t, stack) -> {
                    b.append("  thread ").append(t.getName()).append(' ').append(t.getState()).append('\n');
                    for (StackTraceElement e : stack) {
                        b.append("    at ").append(e).append('\n');
                    }
                });
                synchronized (System.out) {
                    System.out.print(b);
                    System.out.flush();
                }
            }
        } catch (InterruptedException | AssertionError e) {
            // the process ends, or the stop never came: nothing to show
        }
    }

    /** Checks the run's files in {@code dir}; throws naming the first thing wrong. @return the run's counts */
    static String check(Path dir) throws Exception {
        List<Long> acked = Files.readAllLines(dir.resolve("acked")).stream().map(String::strip).filter(l -> !l.isEmpty())
                .map(Long::parseLong).toList();
        require(acked.size() >= READY_COMMITTED, "the old leader acknowledged " + acked.size() + " entries, fewer than "
                + READY_COMMITTED);
        for (int i = 0; i < acked.size(); i++) {
            require(acked.get(i) == i, "the old leader's " + i + "th acknowledged entry is " + acked.get(i));
        }
        Map<String, String> leader = line(Files.readString(dir.resolve("node" + NEW_LEADER + ".log")), "LEADER ");
        long recovered = ChildProcesses.num(leader, "recovered");
        long committed = ChildProcesses.num(leader, "committed");
        require(recovered >= acked.size(), "node 1 recovered " + recovered + " entries, fewer than the " + acked.size()
                + " acknowledged");
        require(committed == recovered + AFTER, "node 1 committed " + committed + ", not " + recovered + " + " + AFTER);
        require(ChildProcesses.num(leader, "appended") == committed, "node 1 appended " + leader.get("appended")
                + " but committed " + committed);
        require(ChildProcesses.num(leader, "fencedWrites") == 0, "node 1's WRITEs refused: " + leader.get("fencedWrites"));
        require("false".equals(leader.get("deposed")), "node 1 was deposed");
        require("true".equals(leader.get("followerAttached")), "node 2 is not attached");
        require("false".equals(leader.get("oldAttached")), "the stopped node 0 is attached");
        long done = Long.parseLong(Files.readString(dir.resolve("leader-done")).strip());
        require(done == committed, "leader-done holds " + done + ", the report " + committed);
        List<Long> sequence = new ArrayList<>();
        for (long i = 0; i < committed; i++) {
            sequence.add(NumberedEntries.value(i));
        }
        for (int node = NEW_LEADER; node <= FOLLOWER; node++) {
            List<Long> applied = ReplicatedLogKilledFollowerMain.applied(dir, node);
            require(applied.equals(sequence), "node " + node + " applied " + applied.size() + " entries that are not the "
                    + committed + " committed ones, each once, in order");
            Map<String, String> member = line(Files.readString(dir.resolve("node" + node + ".log")), "MEMBER ");
            require(ChildProcesses.num(member, "elected") == NEW_LEADER, "node " + node + " elects " + member.get("elected"));
            require("true".equals(member.get("suspectsOld")), "node " + node + " does not suspect node 0");
        }
        return "acked=" + acked.size() + " recovered=" + recovered + " committed=" + committed + " term="
                + leader.get("term") + " survivors=2 equal";
    }

    private static void require(boolean ok, String problem) {
        if (!ok) {
            throw new IllegalStateException(problem);
        }
    }
}
