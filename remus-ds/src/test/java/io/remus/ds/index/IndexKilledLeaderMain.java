package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.index.IndexKilledFollowerMain.Workload;
import io.remus.ds.replicate.ReplicaAgent;
import io.remus.ds.replicate.ReplicaGroup;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import static io.remus.ds.index.IndexKilledFollowerMain.connect;
import static io.remus.ds.index.IndexKilledFollowerMain.sweep;
import static io.remus.ds.index.IndexKilledFollowerMain.writeAtomically;
import static io.remus.ds.testing.ChildMain.awaitFile;
import static io.remus.ds.testing.ChildMain.halt;
import static io.remus.ds.testing.ChildMain.mapInFlight;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link IndexKilledLeaderOnVerbsTest}: node {@code nodeId} of {@value #NODES} processes on one
 * device. Nodes {@value #OLD_LEADER}, {@value #NEW_LEADER} and {@value #FOLLOWER} are the replica group of the
 * index's one shard ({@link #SHARDS}, {@value #SLOTS} log slots, never wrapped) and serve it with fail-over on
 * ({@link IndexShardServer#enableFailover}): nobody appoints a leader, each server's own polls elect the group's
 * lowest trusted member, which takes the shard over. Nodes {@value #CLIENT} and {@value #OTHER_CLIENT} are clients
 * only: a server's thread with fail-over on must keep polling its agent, so it runs no client of its own. Every
 * process connects its {@link RpcEndpoint} to every other's as {@link IndexKilledFollowerMain#connect} does.
 *
 * <p><b>Servers.</b> Each server creates its {@link IndexShardServer} and turns fail-over on (on a second compute
 * thread for the leader), creates {@code armed-<nodeId>}, and starts serving ({@link IndexShardServer#runOnce}, which
 * waits at most {@value #SERVE_MILLIS} ms for a request and polls the agent once) only once every server is armed,
 * so that no agent counts another's heartbeat before that one polls. Node {@value #OLD_LEADER} takes the shard over
 * at its first polls, creates {@code leading} and prints a {@code PROGRESS} line with its term; it marks in its
 * in-flight file ({@value #IN_FLIGHT} in the directory) when it is serving a request (from right before the
 * request's append, where it lingers 5 ms, through the commit flush, the apply and the reply, until its
 * {@code runOnce} returns), creates {@code ready} once it has appended {@value #READY_APPENDS} requests and serves
 * until the test kills it. The survivors' agents suspect it
 * (by count on the shared-memory fabric, where its memory stays; at its first failed READ on verbs), elect node
 * {@value #NEW_LEADER}, which takes the shard over (recovering the log from itself and node {@value #FOLLOWER}) and
 * serves; node {@value #NEW_LEADER} serves until the file {@code swept} appears, then writes its entries applied to
 * {@code leader-done}, its state ({@link IndexStateMachine#describe()}) to {@code state-1} and prints a
 * {@code LEADER} line of {@code key=value} pairs, and leads on until node {@value #FOLLOWER}, which serves until it
 * has applied the count in {@code leader-done}, has written {@code state-2}, printed a {@code FOLLOWER} line and
 * created {@code done-2} (so that the follower never sees the new leader go before it is done).
 *
 * <p><b>Clients.</b> Each client ({@link IndexKilledFollowerMain.Workload}, id {@code 1000 + nodeId}, journal
 * {@code map-<nodeId>.journal}) waits for {@code leading}, then runs operations back to back until the file
 * {@code killed} appears (at most {@value #BEFORE_CAP} before it, then it waits), then {@value #AFTER} more, none of
 * which may fail, and prints a {@code CLIENT} line. A client finds the new leader by itself: a call to the dead
 * leader gets no answer within the attempt timeout, and a survivor answers {@code NOT_LEADER} naming the node its
 * agent elects. Node {@value #OTHER_CLIENT} then creates {@code done-4}; node {@value #CLIENT} waits for it, reads
 * every key once more as another client (id {@value #SWEEP_CLIENT}, journaled as process {@value #NODES} in
 * {@code map-sweep.journal}, first trying the leader its own client found) and creates {@code swept}.
 *
 * <p><b>Suspicion.</b> A survivor polls its agent once per {@code runOnce}: every {@value #SERVE_MILLIS} ms when no
 * request comes, which is the case for a follower except when a client that guessed wrong asks it. A live leader's
 * agent polls at least as often (each request served ends a {@code runOnce}), so only a standstill of about
 * {@value #SUSPECT_AFTER} x {@value #SERVE_MILLIS} ms = 20 s makes a follower suspect it before the kill; the
 * test's stops of the leader last milliseconds. After the kill, suspicion by count takes about as long on the
 * shared-memory fabric; a client's call in flight at the dead leader waits out its {@link #ATTEMPT} timeout.
 * Leaving fails (the dead node never announces its shutdown); the failure is printed as a {@code CLOSE} line and
 * expected. Arguments: {@code fabric nodeId size basePort directory}.
 */
public final class IndexKilledLeaderMain {
    /** Processes. */
    static final int NODES = 5;
    /** The shard's first leader, which the test kills. */
    static final int OLD_LEADER = 0;
    /** The member the survivors elect after the kill. */
    static final int NEW_LEADER = 1;
    /** The other survivor. */
    static final int FOLLOWER = 2;
    /** The client process that also reads every key at the end. */
    static final int CLIENT = 3;
    /** The other client process. */
    static final int OTHER_CLIENT = 4;
    /** The index: one shard, replicated on nodes 0, 1 and 2. */
    static final IndexShards SHARDS = IndexShards.of("killed-leader-kv", ReplicaGroup.of(OLD_LEADER, NEW_LEADER, FOLLOWER));
    /** The log's slots: more than every operation the clients make. */
    static final int SLOTS = 1024;
    /** Requests the first leader appends before it creates {@code ready}. */
    static final int READY_APPENDS = 10;
    /** The most operations of a client before the kill. */
    static final int BEFORE_CAP = 400;
    /** Completed operations of every client after the kill. */
    static final int AFTER = 30;
    /** The client id of the final reads. */
    static final long SWEEP_CLIENT = 1000 + NODES;
    /** The first leader's file of one word: 1 while it serves a request, else 0. */
    static final String IN_FLIGHT = "in-flight";
    /** The longest a server's {@code runOnce} waits for a request. */
    static final long SERVE_MILLIS = 2;
    /**
     * How long node {@value #OLD_LEADER} lingers in each request before its append, marked in flight: a leader on
     * shared memory answers a request in microseconds, so without it the test's random stops rarely land inside a
     * request before the clients' {@value #BEFORE_CAP} operations are done.
     */
    static final long IN_FLIGHT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Heartbeat READs in a row without change before an agent suspects a member (see the class comment). */
    static final int SUSPECT_AFTER = 10_000;
    /** How long a leader waits for a majority per request. */
    static final Duration COMMIT = Duration.ofSeconds(30);
    /** How long a client's attempt waits for an answer: longer than a commit. */
    static final Duration ATTEMPT = Duration.ofSeconds(60);
    /** Each takeover's timeout, and the pause before a failed one is tried again. */
    static final Duration TAKEOVER = Duration.ofMinutes(5);
    /** Each operation's timeout: room for an attempt at the dead leader, suspicion and a takeover. */
    static final Duration OP_TIMEOUT = Duration.ofMinutes(5);
    /** The longest any operation may take: past it the process fails. */
    static final Duration CALL_BOUND = OP_TIMEOUT.plusMinutes(1);
    /** The longest a process runs its threads. */
    static final Duration RUN_BOUND = Duration.ofMinutes(14);
    /** How long joining and each file wait of the start (rings, connections, arming) take at most. */
    static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final int RING_SLOTS = 4;
    private static final long POLL_NANOS = 20_000_000;

    private IndexKilledLeaderMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        if (size != NODES) {
            halt("this test runs " + NODES + " processes, got size " + size);
        }
        run(nodeId, dir, dir.resolve(IN_FLIGHT), fabric.builder(config(nodeId, fabric.hosts(size), basePort), CONNECT));
    }

    /**
     * @param nodeId   this process's node
     * @param hosts    every node's host, {@value #NODES} of them ({@link ClusterProcess#builder})
     * @param basePort node 0's port
     * @return the cluster configuration of node {@code nodeId}
     */
    static ClusterConfig config(int nodeId, List<String> hosts, int basePort) {
        return ClusterProcess.builder(nodeId, hosts, basePort)
                .memoryNodes(new NodeRange(0, hosts.size() - 1)).segmentSize(1 << 20).threadsPerNode(4)
                .opsInFlightPerThread(64).operationTimeout(Duration.ofSeconds(60)).build();
    }

    /**
     * Joins with {@code builder} and plays node {@code nodeId}'s part (the class comment), with its files in
     * {@code dir}, node {@value #OLD_LEADER}'s in-flight word in {@code inFlightFile} (a new file, mapped shared: on
     * a file system that allows it); prints the node's report lines and ends the process.
     */
    static void run(int nodeId, Path dir, Path inFlightFile, RemusCluster.Builder builder) throws Exception {
        progress("joining node=" + nodeId);
        RemusCluster cluster = builder.shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try {
            RpcEndpoint endpoint = RpcEndpoint.create(cluster.node().fabricNode(), NODES, RING_SLOTS);
            connect(endpoint, dir, nodeId, NODES);
            progress("connected node=" + nodeId);
            AtomicLongArray callStarted = new AtomicLongArray(1);
            MemorySegment inFlight = nodeId == OLD_LEADER ? mapInFlight(inFlightFile, 1) : null;
            Thread worker = new Thread(() -> {
                try {
                    lines.add(nodeId >= CLIENT ? client(endpoint, dir, nodeId, callStarted)
                            : serve(cluster, endpoint, dir, nodeId, inFlight));
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
            watch(List.of(worker), callStarted, failures, CALL_BOUND, RUN_BOUND);
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

    /** A server: arms fail-over, then serves in its role until killed (node 0) or the run's end (the survivors). */
    private static String serve(RemusCluster cluster, RpcEndpoint endpoint, Path dir, int nodeId, MemorySegment inFlight)
            throws IOException, InterruptedException {
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION); ComputeThread lt = cluster.node().newComputeThread(Plane.REPLICATION)) {
            IndexShardServer server = IndexShardServer.create(cluster.node(), t, endpoint, SHARDS, 0, SLOTS, COMMIT);
            server.enableFailover(lt, SUSPECT_AFTER, TAKEOVER);
            writeAtomically(dir, "armed-" + nodeId, "");
            for (int n = 0; n < SHARDS.group(0).size(); n++) {
                awaitFile(dir.resolve("armed-" + SHARDS.group(0).member(n)), CONNECT);
            }
            progress("armed node=" + nodeId);
            String line = switch (nodeId) {
                case OLD_LEADER -> leadUntilKilled(server, dir, inFlight);
                case NEW_LEADER -> takeOverAndLead(server, dir);
                default -> follow(server, dir);
            };
            server.close();
            return line;
        }
    }

    /** Node 0: serves, marking each request in flight, until the test kills it. */
    static String leadUntilKilled(IndexShardServer server, Path dir, MemorySegment inFlight) throws IOException {
        server.beforeAppend = () -> {
            inFlight.set(ValueLayout.JAVA_LONG, 0, 1);
            LockSupport.parkNanos(IN_FLIGHT_PAUSE_NANOS);
        };
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        boolean leading = false;
        boolean ready = false;
        while (System.nanoTime() - deadline < 0) {
            server.runOnce(Duration.ofMillis(SERVE_MILLIS));
            inFlight.set(ValueLayout.JAVA_LONG, 0, 0);
            if (!leading && server.isLeader()) {
                leading = true;
                writeAtomically(dir, "leading", "");
                progress("leading node=" + server.nodeId() + " term=" + server.term());
            }
            if (!ready && server.appends() >= READY_APPENDS) {
                ready = true;
                writeAtomically(dir, "ready", "");
                progress("ready appends=" + server.appends());
            }
        }
        return "OLD LEADER ran out of time";
    }

    /** Node 1: serves; once elected after the kill, takes over; after the final reads, reports. */
    static String takeOverAndLead(IndexShardServer server, Path dir) throws IOException {
        Path swept = dir.resolve("swept");
        ElectionWatch watch = new ElectionWatch(server);
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long nextLook = 0;
        while (true) {
            server.runOnce(Duration.ofMillis(SERVE_MILLIS));
            watch.look();
            long now = System.nanoTime();
            if (now - nextLook >= 0) {
                if (Files.exists(swept)) {
                    break;
                }
                if (now - deadline > 0) {
                    throw new AssertionError("no sweep within " + RUN_BOUND);
                }
                nextLook = now + POLL_NANOS;
            }
        }
        server.runOnce(Duration.ZERO);
        if (!server.isLeader()) {
            throw new AssertionError("node " + NEW_LEADER + " does not lead after the final reads; it elects node "
                    + server.agent().leader());
        }
        IndexStateMachine m = server.machine();
        Files.writeString(dir.resolve("state-" + NEW_LEADER), m.describe());
        writeAtomically(dir, "leader-done", Long.toString(server.replica().applied()));
        StringBuilder line = new StringBuilder("LEADER term=" + server.term() + " takeovers=" + server.takeovers()
                + " failedTakeovers=" + server.failedTakeovers() + " recovered=" + server.recoveredEntries()
                + " caughtUp=" + server.caughtUpFollowers() + " appends=" + server.appends() + " entries="
                + server.replica().applied() + " applied=" + m.applied() + " duplicates=" + m.duplicates() + " malformed="
                + m.malformed() + " fromTable=" + server.answeredFromTable() + " retries=" + server.retryAnswers()
                + " notLeader=" + server.notLeaderAnswers() + " requests=" + server.requests() + " fencedWrites="
                + server.fencedWrites() + " takeoverReads=" + server.lastTakeoverReads() + " takeoverWrites="
                + server.lastTakeoverWrites() + " takeoverRoundTrips=" + server.lastTakeoverRoundTrips());
        agentPairs(line, server.agent());
        for (long c : new long[] {1000 + CLIENT, 1000 + OTHER_CLIENT, SWEEP_CLIENT}) {
            line.append(" seq").append(c).append('=').append(m.lastSequence(c));
        }
        Path followerDone = dir.resolve("done-" + FOLLOWER);
        while (!Files.exists(followerDone)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + FOLLOWER + " did not catch up within " + RUN_BOUND);
            }
            server.runOnce(Duration.ofMillis(POLL_NANOS / 1_000_000));
        }
        return line.toString();
    }

    /** Node 2: serves (answering {@code NOT_LEADER}) and applies until it applied what the new leader applied. */
    static String follow(IndexShardServer server, Path dir) throws IOException {
        Path done = dir.resolve("leader-done");
        ElectionWatch watch = new ElectionWatch(server);
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long nextLook = 0;
        long wanted = -1;
        while (wanted < 0 || server.replica().applied() < wanted) {
            server.runOnce(Duration.ofMillis(SERVE_MILLIS));
            watch.look();
            long now = System.nanoTime();
            if (now - nextLook >= 0) {
                if (now - deadline > 0) {
                    throw new AssertionError("node " + FOLLOWER + " applied " + server.replica().applied()
                            + " entries (wanted " + wanted + ") within " + RUN_BOUND);
                }
                if (wanted < 0 && Files.exists(done)) {
                    wanted = Long.parseLong(Files.readString(done).strip());
                }
                nextLook = now + POLL_NANOS;
            }
        }
        IndexStateMachine m = server.machine();
        Files.writeString(dir.resolve("state-" + FOLLOWER), m.describe());
        StringBuilder line = new StringBuilder("FOLLOWER node=" + FOLLOWER + " leads=" + server.isLeader() + " entries="
                + server.replica().applied() + " applied=" + m.applied() + " duplicates=" + m.duplicates() + " notLeader="
                + server.notLeaderAnswers() + " takeovers=" + server.takeovers());
        agentPairs(line, server.agent());
        writeAtomically(dir, "done-" + FOLLOWER, "");
        return line.toString();
    }

    /** Appends what a member's agent and replica show: whom it elects, grants and promised, and its suspicion of node 0. */
    private static void agentPairs(StringBuilder line, ReplicaAgent agent) {
        line.append(" elected=").append(agent.leader()).append(" suspectsOld=").append(agent.isSuspected(OLD_LEADER))
                .append(" grantSwitches=").append(agent.grantSwitches()).append(" polls=").append(agent.polls())
                .append(" failedReads=").append(agent.failedReads());
    }

    /** Prints a {@code PROGRESS} line whenever the member's agent elects another node or the server starts leading. */
    private static final class ElectionWatch {
        private final IndexShardServer server;
        private int elected = -1;
        private boolean leading;

        ElectionWatch(IndexShardServer server) {
            this.server = server;
        }

        void look() {
            int now = server.agent().leader();
            if (now != elected) {
                elected = now;
                progress("node " + server.nodeId() + " elects node " + now);
            }
            if (server.isLeader() != leading) {
                leading = !leading;
                progress("node " + server.nodeId() + (leading ? " leads term=" + server.term() : " stopped leading"));
            }
        }
    }

    /** A client process: its operations until and after the kill; node 3 then reads every key once more. */
    private static String client(RpcEndpoint endpoint, Path dir, int nodeId, AtomicLongArray callStarted)
            throws IOException, InterruptedException {
        awaitFile(dir.resolve("leading"), CONNECT);
        Workload w = new Workload(endpoint, SHARDS, ATTEMPT, OP_TIMEOUT, dir, nodeId, callStarted, null);
        String line = w.runLive(null, 0, BEFORE_CAP, AFTER) + " leaderGuess=" + w.leaderGuess();
        w.close();
        if (nodeId == OTHER_CLIENT) {
            writeAtomically(dir, "done-" + OTHER_CLIENT, "");
            return line;
        }
        awaitFile(dir.resolve("done-" + OTHER_CLIENT), RUN_BOUND);
        String sweep = sweep(endpoint, SHARDS, ATTEMPT, OP_TIMEOUT, SWEEP_CLIENT, NODES, w.leaderGuess(), dir, callStarted);
        writeAtomically(dir, "swept", "");
        return line + "\n" + sweep;
    }
}
