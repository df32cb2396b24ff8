package io.remus.ds.index;

import io.remus.check.HistoryClock;
import io.remus.ds.replicate.GuestStopMain;
import io.remus.ds.replicate.GuestStopMain.NodeArgs;
import io.remus.ds.testing.ChildMain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;

/**
 * The replicated index's first leader stopped hard across two Soft-RoCE guests ({@code softroce/run-guest-stop}, its
 * default service): the five processes of {@link IndexKilledLeaderMain}, node 0 (the shard's first leader) alone in
 * one guest, the other servers (nodes 1 and 2) and the two client processes (nodes 3 and 4) in the other, each on
 * its guest's rxe0. The processes' start-up files ({@code rings-*}, {@code connected-*}, {@code armed-*},
 * {@code leading}) cross between the guests' directories through the host, which copies each to the other guest's
 * directory. Once node 0 has appended {@value IndexKilledLeaderMain#READY_APPENDS} requests (its file {@code ready})
 * the host stops its guest with QEMU's {@code quit}: no shutdown, no FIN, its queue pairs simply stop answering,
 * whatever request it was serving left unanswered. The host then copies node 0's output to {@code node0.log} in the
 * survivors' directory and creates {@code killed} there; the survivors elect node 1, which takes the shard over, and
 * the clients find it by themselves, as in the one-host test ({@link IndexKilledLeaderOnVerbsTest}). Nothing after
 * the stop needs node 0: the survivors' and clients' waits are on each other's files and on their own operation
 * timeouts.
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@link GuestStopMain.NodeArgs#USAGE}: one process, {@value IndexKilledLeaderMain#NODES} hosts, as
 *       {@link GuestStopMain}'s node mode; a survivor prints every thread's stack while it runs long after the
 *       stop.</li>
 *   <li>{@code verdict DIR}: after nodes 1 to 4 ended, in the survivors' guest; reads {@code node0.log} to
 *       {@code node4.log}, the clients' journals, the survivors' states and {@value #KILLED_AT} (node 1 writes the
 *       instant it saw {@code killed}: the operations invoked before it and answered after it are counted), checks them with
 *       {@link IndexKilledLeaderVerdict} (linearizable per-key histories with the operations in flight at the stop,
 *       each operation applied once, node 1 leading in a higher term, survivors equal), prints one line
 *       {@code VERDICT PASSED ...} or {@code VERDICT FAILED <reason>}, writes it to {@code verdict} and exits 0 only
 *       when it passed.</li>
 * </ul>
 */
public final class IndexGuestStopMain {
    /** The linearizability check's budget: an emulated guest is 20 to 100 times slower than a host. */
    static final Duration CHECK_BUDGET = Duration.ofMinutes(3);
    /** Node 1's file of the instant it saw the stop, for the count of operations in flight across it. */
    static final String KILLED_AT = "killed-at";

    private IndexGuestStopMain() {
    }

    /** @param args {@code node ...} or {@code verdict DIR} (the class comment) */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("node")) {
            NodeArgs node = parse(args);
            if (node.nodeId() != OLD_LEADER) {
                GuestStopMain.startStackDumps(node.dir(), node.nodeId());
            }
            if (node.nodeId() == IndexKilledLeaderMain.NEW_LEADER) {
                startStopWatch(node.dir());
            }
            // nobody watches node 0's in-flight word here, and the guest's shared directory (9p without a
            // write-back cache) refuses a writable shared mapping: the word lives in the guest's own temporary files
            Path inFlight = Files.createTempDirectory("index-guest-stop").resolve(IndexKilledLeaderMain.IN_FLIGHT);
            IndexKilledLeaderMain.run(node.nodeId(), node.dir(), inFlight,
                    node.builder(IndexKilledLeaderMain.config(node.nodeId(), node.hosts(), node.basePort())));
        } else if (args.length == 2 && args[0].equals("verdict")) {
            Path dir = Path.of(args[1]);
            System.exit(GuestStopMain.writeVerdict(dir, () -> check(dir)) ? 0 : 1);
        } else {
            System.out.println("usage: IndexGuestStopMain " + NodeArgs.USAGE + " | verdict DIR; got "
                    + Arrays.toString(args));
            System.exit(2);
        }
    }

    /**
     * Starts a daemon thread that writes, once the file {@code killed} appears in {@code dir}, the instant it saw it
     * ({@link HistoryClock#EPOCH_MICROS}) to {@value #KILLED_AT}: shortly after the stop, on the clock of the
     * survivors' journals.
     */
    private static void startStopWatch(Path dir) {
        Thread watch = new Thread(() -> {
            try {
                ChildMain.awaitFile(dir.resolve("killed"), IndexKilledLeaderMain.RUN_BOUND);
                IndexKilledFollowerMain.writeAtomically(dir, KILLED_AT, Long.toString(HistoryClock.EPOCH_MICROS.now()));
            } catch (InterruptedException | AssertionError | IOException e) {
                // the process ends, or the stop never came: the verdict counts no operation across it
            }
        }, "stop-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /**
     * @param args the node mode's command line
     * @return what it says
     * @throws IllegalArgumentException naming the first bad argument, or a host list of other than
     *                                  {@value IndexKilledLeaderMain#NODES} nodes
     */
    static NodeArgs parse(String[] args) {
        NodeArgs node = NodeArgs.parse(args);
        if (node.hosts().size() != NODES) {
            throw new IllegalArgumentException("HOSTS names " + node.hosts().size() + " nodes, this run has " + NODES
                    + ": " + node.hosts());
        }
        return node;
    }

    /**
     * Checks the survivors' files in {@code dir}.
     *
     * @param dir the survivors' directory, with node 0's output copied in as {@code node0.log}
     * @return the run's counts
     * @throws IOException           when a file cannot be read
     * @throws IllegalStateException naming the first thing wrong
     */
    static String check(Path dir) throws IOException {
        List<String> outputs = new ArrayList<>();
        for (int node = 0; node < NODES; node++) {
            Path log = dir.resolve("node" + node + ".log");
            if (!Files.isRegularFile(log)) {
                throw new IllegalStateException("no " + log.getFileName());
            }
            outputs.add(Files.readString(log));
        }
        Path killedAt = dir.resolve(KILLED_AT);
        long at = Files.isRegularFile(killedAt) ? Long.parseLong(Files.readString(killedAt).strip()) : -1;
        return IndexKilledLeaderVerdict.check(dir, outputs, at, CHECK_BUDGET);
    }
}
