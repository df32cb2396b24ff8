package io.remus.ds.index;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Plane;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.index.IndexKilledFollowerMain.Workload;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.index.IndexKilledFollowerMain.sweep;
import static io.remus.ds.index.IndexKilledFollowerMain.writeAtomically;
import static io.remus.ds.index.IndexKilledLeaderMain.CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.COMMIT;
import static io.remus.ds.index.IndexKilledLeaderMain.FOLLOWER;
import static io.remus.ds.index.IndexKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.OTHER_CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.RUN_BOUND;
import static io.remus.ds.index.IndexKilledLeaderMain.SERVE_MILLIS;
import static io.remus.ds.index.IndexKilledLeaderMain.SWEEP_CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.TAKEOVER;
import static io.remus.ds.testing.ChildMain.awaitFile;
import static io.remus.ds.testing.ChildMain.halt;
import static io.remus.ds.testing.ChildMain.mapInFlight;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link IndexRestartedOnVerbsTest}: node {@code nodeId} of {@value IndexKilledLeaderMain#NODES}
 * processes on one device, in its first life or, for node {@value IndexKilledLeaderMain#FOLLOWER}, in its second: a
 * new process with the same node id and new memory. The roles are {@link IndexKilledLeaderMain}'s (nodes 0, 1 and 2
 * serve the index's one shard with fail-over on, node 0 leads first, nodes 3 and 4 are clients), with these
 * differences:
 * <ul>
 *   <li>Every process opens its {@link RpcEndpoint} through the cluster ({@link RemusCluster#openRpcEndpoint}), which
 *       publishes its rings in the cluster's name directory under its incarnation's name; node 2's second life opens
 *       it with {@link RemusCluster#reopenRpcEndpoint} (no barriers) and makes its shard server with
 *       {@link IndexShardServer#rejoin}, so the others' endpoints re-learn its new rings when they next reach it.</li>
 *   <li>Node 2's second life serves as a follower; once its log is no longer
 *       {@linkplain IndexShardServer#isRecovering() recovering} (the leader caught it up, {@link IndexShardServer}'s
 *       {@code catchUp}), it creates the file {@value #REJOINED} and prints a {@code REJOINED} line; the test then
 *       kills node 0, and node 2 follows on as {@link IndexKilledLeaderMain}'s node 2 does, through node 1's
 *       takeover (which needs node 2's log: node 0's is gone).</li>
 *   <li>The clients pause {@value #PAUSE_MILLIS} ms between operations, so that they still run (at most
 *       {@value #BEFORE_CAP} operations each, a third of them until {@value #REJOINED} exists, however long node
 *       2's restart takes) when node 0 is killed after node 2's restart, and the log
 *       ({@value #SLOTS} slots) never wraps: node 2's second life is caught up from the leader's log.</li>
 *   <li>Suspicion by count and a client's attempt timeout are arguments: on shared memory the dead leader's memory
 *       stays, so the survivors suspect it only by count and a call to it waits out the attempt.</li>
 * </ul>
 * Every process prints an {@code ENDPOINT} line with its endpoint's {@link RpcEndpoint#relearnedPeers()} at its end.
 * Arguments: {@code fabric nodeId size basePort directory suspectAfter attemptSeconds life}, {@code life}
 * {@value #FIRST} or {@value #REJOIN}.
 */
public final class IndexRestartedMain {
    /** A process's first life. */
    static final String FIRST = "first";
    /** Node {@value IndexKilledLeaderMain#FOLLOWER}'s second life: {@link IndexShardServer#rejoin}. */
    static final String REJOIN = "rejoin";
    /** The file node 2's second life creates once its log is caught up. */
    static final String REJOINED = "rejoined";
    /** The log's slots: more than every operation the clients make. */
    static final int SLOTS = 2048;
    /** The most operations of a client before node 0's kill. */
    static final int BEFORE_CAP = 900;
    /** A client's pause between two operations before node 0's kill. */
    static final long PAUSE_MILLIS = 15;
    /** Each memory node's segment: room for the log's {@value #SLOTS} slots of a request each. */
    static final int SEGMENT_BYTES = 4 << 20;
    /** How long a rejoin waits for the other members' promised terms. */
    static final Duration REJOIN_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final int RING_SLOTS = 4;
    private static final long POLL_NANOS = 20_000_000;

    private IndexRestartedMain() {
    }

    /** @param args fabric, node id, size, base port, directory, suspectAfter, attempt seconds, life */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        int suspectAfter = Integer.parseInt(args[5]);
        Duration attempt = Duration.ofSeconds(Long.parseLong(args[6]));
        boolean rejoin = args[7].equals(REJOIN);
        if (size != NODES) {
            halt("this test runs " + NODES + " processes, got size " + size);
        }
        if (rejoin && nodeId != FOLLOWER) {
            halt("only node " + FOLLOWER + " rejoins, not node " + nodeId);
        }
        progress("joining node=" + nodeId + " life=" + args[7]);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 1)).segmentSize(SEGMENT_BYTES).threadsPerNode(4)
                .opsInFlightPerThread(64).operationTimeout(Duration.ofSeconds(60)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT)
                .shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId + " incarnation=" + Long.toHexString(cluster.node().fabricNode().incarnation()));
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try {
            RpcEndpoint endpoint = rejoin ? cluster.reopenRpcEndpoint(RING_SLOTS) : cluster.openRpcEndpoint(RING_SLOTS);
            progress("connected node=" + nodeId);
            AtomicLongArray callStarted = new AtomicLongArray(1);
            MemorySegment inFlight = nodeId == OLD_LEADER ? mapInFlight(dir.resolve(IndexKilledLeaderMain.IN_FLIGHT), 1)
                    : null;
            Thread worker = new Thread(() -> {
                try {
                    lines.add(nodeId >= CLIENT ? client(endpoint, dir, nodeId, attempt, callStarted)
                            : serve(cluster, endpoint, dir, nodeId, rejoin, suspectAfter, inFlight));
                    lines.add("ENDPOINT node=" + nodeId + " relearned=" + endpoint.relearnedPeers() + " revivals="
                            + endpoint.revivals() + " unmatched=" + endpoint.unmatchedResponses());
                } catch (Throwable e) {
                    failures.add(e);
                    synchronized (System.out) {
                        e.printStackTrace(System.out);
                        System.out.flush();
                    }
                }
            }, "index@node" + nodeId);
            worker.setDaemon(true);
            worker.start();
            watch(List.of(worker), callStarted, failures, IndexKilledLeaderMain.CALL_BOUND, RUN_BOUND);
        } finally {
            try {
                cluster.close();
            } catch (RemusException e) {
                lines.add("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        lines.forEach(System.out::println);
        System.out.flush();
        System.exit(0);
    }

    /** A server: arms fail-over, then serves in its role (see the class comment). */
    private static String serve(RemusCluster cluster, RpcEndpoint endpoint, Path dir, int nodeId, boolean rejoin,
                                int suspectAfter, MemorySegment inFlight) throws IOException, InterruptedException {
        IndexShards shards = IndexKilledLeaderMain.SHARDS;
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION);
             ComputeThread lt = cluster.node().newComputeThread(Plane.REPLICATION)) {
            IndexShardServer server = rejoin
                    ? IndexShardServer.rejoin(cluster.node(), t, endpoint, shards, 0, SLOTS, 0, 0, COMMIT, REJOIN_TIMEOUT)
                    : IndexShardServer.create(cluster.node(), t, endpoint, shards, 0, SLOTS, COMMIT);
            server.enableFailover(lt, suspectAfter, TAKEOVER);
            String line;
            if (rejoin) {
                line = rejoinAndFollow(server, dir);
            } else {
                writeAtomically(dir, "armed-" + nodeId, "");
                for (int n = 0; n < shards.group(0).size(); n++) {
                    awaitFile(dir.resolve("armed-" + shards.group(0).member(n)), CONNECT);
                }
                progress("armed node=" + nodeId);
                line = switch (nodeId) {
                    case OLD_LEADER -> IndexKilledLeaderMain.leadUntilKilled(server, dir, inFlight);
                    case NEW_LEADER -> IndexKilledLeaderMain.takeOverAndLead(server, dir);
                    default -> IndexKilledLeaderMain.follow(server, dir);
                };
            }
            server.close();
            return line;
        }
    }

    /** Node 2's second life: serves until its log is caught up, creates {@value #REJOINED}, then follows. */
    private static String rejoinAndFollow(IndexShardServer server, Path dir) throws IOException {
        boolean wasRecovering = server.isRecovering();
        long promised = server.replica().promised();
        progress("rejoined node=" + server.nodeId() + " recovering=" + wasRecovering + " promised=" + promised);
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long nextLook = 0;
        long polls = 0;
        while (server.isRecovering()) {
            server.runOnce(Duration.ofMillis(SERVE_MILLIS));
            polls++;
            long now = System.nanoTime();
            if (now - nextLook >= 0) {
                if (now - deadline > 0) {
                    throw new AssertionError("node " + server.nodeId() + " was still recovering after " + RUN_BOUND
                            + " (applied " + server.replica().applied() + ")");
                }
                nextLook = now + POLL_NANOS;
            }
        }
        String rejoined = "REJOINED node=" + server.nodeId() + " wasRecovering=" + wasRecovering + " promised=" + promised
                + " appliedAtCatchUp=" + server.replica().applied() + " pollsToCatchUp=" + polls + " elected="
                + server.agent().leader();
        writeAtomically(dir, REJOINED, Long.toString(server.replica().applied()));
        progress("caught up " + rejoined);
        return rejoined + "\n" + IndexKilledLeaderMain.follow(server, dir);
    }

    /** A client process, as {@link IndexKilledLeaderMain}'s, pausing between its operations before the kill. */
    private static String client(RpcEndpoint endpoint, Path dir, int nodeId, Duration attempt, AtomicLongArray callStarted)
            throws IOException, InterruptedException {
        IndexShards shards = IndexKilledLeaderMain.SHARDS;
        awaitFile(dir.resolve("leading"), CONNECT);
        Workload w = new Workload(endpoint, shards, attempt, IndexKilledLeaderMain.OP_TIMEOUT, dir, nodeId, callStarted,
                null);
        String line = w.runLive(null, PAUSE_MILLIS, BEFORE_CAP, IndexKilledLeaderMain.AFTER, dir.resolve(REJOINED),
                BEFORE_CAP / 3) + " leaderGuess="
                + w.leaderGuess();
        w.close();
        if (nodeId == OTHER_CLIENT) {
            writeAtomically(dir, "done-" + OTHER_CLIENT, "");
            return line;
        }
        awaitFile(dir.resolve("done-" + OTHER_CLIENT), RUN_BOUND);
        String sweep = sweep(endpoint, shards, attempt, IndexKilledLeaderMain.OP_TIMEOUT, SWEEP_CLIENT, NODES,
                w.leaderGuess(), dir, callStarted);
        writeAtomically(dir, "swept", "");
        return line + "\n" + sweep;
    }
}
