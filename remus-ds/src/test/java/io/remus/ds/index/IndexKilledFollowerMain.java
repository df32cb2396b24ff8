package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryJournal;
import io.remus.check.spec.MapSpec;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.ReplicaGroup;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.testing.ChildMain.awaitFile;
import static io.remus.ds.testing.ChildMain.halt;
import static io.remus.ds.testing.ChildMain.mapInFlight;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link IndexKilledFollowerOnVerbsTest}: node {@code nodeId} of {@value #NODES} processes on one
 * device. Nodes {@value #LEADER}, {@value #SURVIVOR} and {@value #VICTIM} are the replica group of the index's one
 * shard ({@link #SHARDS}, {@value #SLOTS} log slots, never wrapped); node {@value #CLIENT} is a client only. Every
 * process creates an {@link RpcEndpoint} on its node, writes its rings to the file {@code rings-<nodeId>}, connects
 * to every other process's endpoint once all are written, and creates {@code connected-<nodeId>}; nobody calls
 * before every process is connected.
 *
 * <p>Node {@value #LEADER} serves the shard as its leader (a {@link LogLeader} of term 1 opened on its thread) until
 * the file {@code swept} appears; then it writes its applied count to {@code leader-done}, its state
 * ({@link IndexStateMachine#describe()}) to {@code state-0} and prints a {@code LEADER} line. The followers serve on
 * one thread each, which is also the thread of their endpoint's client ({@link RemusIndex}, id {@code 1000 + nodeId}):
 * between two operations they serve and apply. No member switches its grant ({@link IndexShardServer#grantWriteTo}):
 * the leader is fixed for the whole run, the clients find it as the group's first member, and a follower asked
 * answers {@code NOT_LEADER} naming no node.
 *
 * <p>The clients' workload: over {@value #KEYS} keys, 40 % put of a value unique to the put, 40 % get, 20 % delete,
 * each operation journaled ({@link HistoryJournal}, {@code map-<nodeId>.journal}, as {@link MapSpec} operations:
 * invocation before the call, response after it). The victim, node {@value #VICTIM}, runs operations without pause,
 * marks in the file {@value #IN_FLIGHT} whether one is in flight, creates {@code ready} after {@value #READY_OPS}
 * operations and runs until the test kills it. The live clients (nodes {@value #SURVIVOR} and {@value #CLIENT})
 * run operations {@value #PAUSE_MILLIS} ms apart until the file {@code killed} appears (at most {@value #BEFORE_CAP}
 * before it, then they wait), then {@value #AFTER} more, none of which may fail, and print a {@code CLIENT} line;
 * the survivor creates {@code done-1}. Then node {@value #CLIENT} reads every key once more as another client
 * (id {@value #SWEEP_CLIENT}), journaled as process {@value #NODES} ({@code map-sweep.journal}), and creates
 * {@code swept}. The survivor applies until it has applied the count in {@code leader-done}, writes {@code state-1}
 * and prints a {@code FOLLOWER} line. Leaving fails (the dead node never announces its shutdown); the failure is
 * printed as a {@code CLOSE} line and expected. Arguments: {@code fabric nodeId size basePort directory}.
 */
public final class IndexKilledFollowerMain {
    /** Processes. */
    static final int NODES = 4;
    /** The shard's leader. */
    static final int LEADER = 0;
    /** The follower that lives, also a client. */
    static final int SURVIVOR = 1;
    /** The client-only process, which also reads every key at the end. */
    static final int CLIENT = 2;
    /** The follower the test kills, also a client; the last process, as {@code ChildProcesses.killMidOperation} wants. */
    static final int VICTIM = 3;
    /** The index: one shard, replicated on the leader and the two followers. */
    static final IndexShards SHARDS = IndexShards.of("killed-kv", ReplicaGroup.of(LEADER, SURVIVOR, VICTIM));
    /** The log's slots: more than every operation the clients make. */
    static final int SLOTS = 1024;
    /** Keys of the workload. */
    static final int KEYS = 4;
    /** Operations of the victim before it creates {@code ready}. */
    static final int READY_OPS = 10;
    /** The most operations of a client before the kill. */
    static final int BEFORE_CAP = 150;
    /** Completed operations of every live client after the kill. */
    static final int AFTER = 30;
    /** A live client's pause between operations before the kill. */
    static final long PAUSE_MILLIS = 2;
    /** The client id of the final reads. */
    static final long SWEEP_CLIENT = 1000 + NODES;
    /** The victim's file of one word: 1 while an operation is in flight, else 0. */
    static final String IN_FLIGHT = "in-flight";
    /** How long the leader waits for a majority per request. */
    static final Duration COMMIT = Duration.ofSeconds(30);
    /** How long a client's attempt waits for an answer: longer than a commit. */
    static final Duration ATTEMPT = Duration.ofSeconds(60);
    /** Each operation's timeout. */
    static final Duration OP_TIMEOUT = Duration.ofMinutes(2);
    /** The longest any operation may take: past it the process fails. */
    static final Duration CALL_BOUND = OP_TIMEOUT.plusMinutes(1);
    /** The longest a process runs its threads. */
    static final Duration RUN_BOUND = Duration.ofMinutes(10);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final int RING_SLOTS = 4;
    private static final long POLL_NANOS = 20_000_000;

    private IndexKilledFollowerMain() {
    }

    /** {@return the bytes of key {@code k}} */
    static byte[] key(long k) {
        return ("key" + k).getBytes(StandardCharsets.UTF_8);
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
        progress("joining node=" + nodeId);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 1)).segmentSize(1 << 20).threadsPerNode(4).opsInFlightPerThread(64)
                .operationTimeout(Duration.ofSeconds(60)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT).shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try {
            RpcEndpoint endpoint = RpcEndpoint.create(cluster.node().fabricNode(), NODES, RING_SLOTS);
            connect(endpoint, dir, nodeId, NODES);
            progress("connected node=" + nodeId);
            AtomicLongArray callStarted = new AtomicLongArray(1);
            MemorySegment inFlight = nodeId == VICTIM ? mapInFlight(dir.resolve(IN_FLIGHT), 1) : null;
            Thread worker = new Thread(() -> {
                try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
                    lines.add(switch (nodeId) {
                        case LEADER -> lead(cluster, t, endpoint, dir);
                        case CLIENT -> clientOnly(endpoint, dir, callStarted);
                        default -> follow(cluster, t, endpoint, dir, nodeId, callStarted, inFlight);
                    });
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

    /**
     * Publishes this endpoint's rings in {@code rings-<nodeId>}, connects to those of every other of the {@code nodes}
     * processes, and waits until all are connected.
     */
    static void connect(RpcEndpoint endpoint, Path dir, int nodeId, int nodes) throws IOException, InterruptedException {
        RemoteRegion mine = endpoint.rings();
        writeAtomically(dir, "rings-" + nodeId, mine.nodeId() + " " + mine.address() + " " + mine.length() + " " + mine.rkey());
        for (int p = 0; p < nodes; p++) {
            if (p != nodeId) {
                Path file = dir.resolve("rings-" + p);
                awaitFile(file, CONNECT);
                String[] w = Files.readString(file).strip().split(" ");
                endpoint.connect(new RemoteRegion(Integer.parseInt(w[0]), Long.parseLong(w[1]), Long.parseLong(w[2]),
                        Integer.parseInt(w[3])), CONNECT);
            }
        }
        writeAtomically(dir, "connected-" + nodeId, "");
        for (int p = 0; p < nodes; p++) {
            awaitFile(dir.resolve("connected-" + p), CONNECT);
        }
    }

    /** Writes {@code text} to the file {@code name} in {@code dir} so that a reader sees all of it or no file. */
    static void writeAtomically(Path dir, String name, String text) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    /** The leader: serves until {@code swept}, then reports its counts and state. */
    private static String lead(RemusCluster cluster, ComputeThread t, RpcEndpoint endpoint, Path dir)
            throws IOException, InterruptedException {
        IndexShardServer server = IndexShardServer.create(cluster.node(), t, endpoint, SHARDS, 0, SLOTS, COMMIT);
        LogLeader leader = LogLeader.open(t, SHARDS.group(0), SHARDS.logName(0), 1, CONNECT);
        server.lead(leader);
        writeAtomically(dir, "leading", "");
        progress("leading");
        Path swept = dir.resolve("swept");
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long nextLook = 0;
        while (true) {
            server.runOnce(Duration.ofMillis(1));
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
        IndexStateMachine m = server.machine();
        Files.writeString(dir.resolve("state-" + LEADER), m.describe());
        writeAtomically(dir, "leader-done", Long.toString(server.replica().applied()));
        StringBuilder line = new StringBuilder("LEADER appends=" + server.appends() + " applied=" + m.applied()
                + " duplicates=" + m.duplicates() + " fromTable=" + server.answeredFromTable() + " retries="
                + server.retryAnswers() + " requests=" + server.requests() + " committed=" + leader.committed()
                + " survivorAttached=" + leader.isAttached(SURVIVOR) + " victimAttached=" + leader.isAttached(VICTIM)
                + " detachedDown=" + leader.detachedDown() + " detachedLagging=" + leader.detachedLagging()
                + " fencedWrites=" + leader.fencedWrites());
        for (int n = SURVIVOR; n <= NODES; n++) {
            line.append(" seq").append(1000 + n).append('=').append(m.lastSequence(1000 + n));
        }
        server.close();
        return line.toString();
    }

    /** A follower: serves and applies, and runs its client's operations between; the victim until it is killed. */
    private static String follow(RemusCluster cluster, ComputeThread t, RpcEndpoint endpoint, Path dir, int nodeId,
                                 AtomicLongArray callStarted, MemorySegment inFlight) throws IOException, InterruptedException {
        IndexShardServer server = IndexShardServer.create(cluster.node(), t, endpoint, SHARDS, 0, SLOTS, COMMIT);
        progress("replica created node=" + nodeId);
        Path leading = dir.resolve("leading");
        while (!Files.exists(leading)) {
            server.runOnce(Duration.ofMillis(20));
        }
        Workload w = new Workload(endpoint, SHARDS, ATTEMPT, OP_TIMEOUT, dir, nodeId, callStarted, inFlight);
        if (nodeId == VICTIM) {
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            for (int i = 0; System.nanoTime() - deadline < 0; i++) {
                if (i < BEFORE_CAP) {
                    w.next();
                    if (i + 1 == READY_OPS) {
                        writeAtomically(dir, "ready", "");
                        progress("ready");
                    }
                }
                server.runOnce(i < BEFORE_CAP ? Duration.ZERO : Duration.ofMillis(1));
            }
            return "VICTIM ran out of time";
        }
        String line = w.runLive(server, PAUSE_MILLIS, BEFORE_CAP, AFTER);
        w.close();
        writeAtomically(dir, "done-" + nodeId, "");
        Path done = dir.resolve("leader-done");
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long wanted = -1;
        while (wanted < 0 || server.replica().applied() < wanted) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + nodeId + " applied " + server.replica().applied() + " entries (wanted "
                        + wanted + ") within " + RUN_BOUND);
            }
            server.runOnce(Duration.ofMillis(1));
            if (wanted < 0 && Files.exists(done)) {
                wanted = Long.parseLong(Files.readString(done).strip());
            }
        }
        IndexStateMachine m = server.machine();
        Files.writeString(dir.resolve("state-" + nodeId), m.describe());
        String follower = "FOLLOWER node=" + nodeId + " applied=" + m.applied() + " duplicates=" + m.duplicates()
                + " notLeader=" + server.notLeaderAnswers();
        server.close();
        return line + "\n" + follower;
    }

    /** The client-only process: its operations, then, once the survivor is done, one read of every key. */
    private static String clientOnly(RpcEndpoint endpoint, Path dir, AtomicLongArray callStarted)
            throws IOException, InterruptedException {
        Workload w = new Workload(endpoint, SHARDS, ATTEMPT, OP_TIMEOUT, dir, CLIENT, callStarted, null);
        String line = w.runLive(null, PAUSE_MILLIS, BEFORE_CAP, AFTER);
        w.close();
        awaitFile(dir.resolve("done-" + SURVIVOR), RUN_BOUND);
        String sweep = sweep(endpoint, SHARDS, ATTEMPT, OP_TIMEOUT, SWEEP_CLIENT, NODES, SHARDS.group(0).member(0), dir,
                callStarted);
        writeAtomically(dir, "swept", "");
        return line + "\n" + sweep;
    }

    /**
     * Reads every key once as client {@code clientId}, first guessing {@code leaderGuess} leads, journaled as process
     * {@code process} in {@code map-sweep.journal}, each read's attempts waiting {@code attempt} and the read
     * {@code opTimeout}.
     *
     * @return a {@code SWEEP} line: {@code keyK=WORD} per key, {@code -} for an absent one
     */
    static String sweep(RpcEndpoint endpoint, IndexShards shards, Duration attempt, Duration opTimeout, long clientId,
                        int process, int leaderGuess, Path dir, AtomicLongArray callStarted) {
        RemusIndex sweeper = new RemusIndex(endpoint, shards, clientId, attempt);
        sweeper.expectLeader(0, leaderGuess);
        StringBuilder sweep = new StringBuilder("SWEEP");
        try (HistoryJournal j = HistoryJournal.create(dir.resolve("map-sweep.journal"), HistoryClock.EPOCH_MICROS, process)) {
            for (long k = 1; k <= KEYS; k++) {
                int op = j.invoke(0, MapSpec.GET, k);
                callStarted.set(0, System.nanoTime());
                byte[] v = sweeper.get(key(k), opTimeout);
                callStarted.set(0, 0);
                if (v == null) {
                    j.respond(op, 0);
                } else {
                    j.respond(op, 1, ByteBuffer.wrap(v).getLong());
                }
                sweep.append(" key").append(k).append('=').append(v == null ? "-" : Long.toString(ByteBuffer.wrap(v).getLong()));
            }
        }
        return sweep.toString();
    }

    /**
     * One client's journaled operations (client id {@code 1000 + nodeId}, journal {@code map-<nodeId>.journal}) over
     * {@value #KEYS} keys, each waiting at most {@code opTimeout}.
     */
    static final class Workload {
        private final RemusIndex index;
        private final Duration opTimeout;
        private final Path dir;
        private final int nodeId;
        private final AtomicLongArray callStarted;
        private final MemorySegment inFlight;
        private final HistoryJournal journal;
        private final SplittableRandom rnd;
        private long ops;

        Workload(RpcEndpoint endpoint, IndexShards shards, Duration attempt, Duration opTimeout, Path dir, int nodeId,
                 AtomicLongArray callStarted, MemorySegment inFlight) {
            this.index = new RemusIndex(endpoint, shards, 1000 + nodeId, attempt);
            this.opTimeout = opTimeout;
            this.dir = dir;
            this.nodeId = nodeId;
            this.callStarted = callStarted;
            this.inFlight = inFlight;
            this.journal = HistoryJournal.create(dir.resolve("map-" + nodeId + ".journal"), HistoryClock.EPOCH_MICROS, nodeId);
            this.rnd = new SplittableRandom(nodeId * 1_000_003L + 17);
        }

        /**
         * A live client's run: operations {@code pauseMillis} ms apart until the kill (at most {@code beforeCap}, then
         * it only waits), then {@code after} more; {@code server}, when not null, serves and applies between
         * operations.
         *
         * @return a {@code CLIENT} line of {@code key=value} pairs, {@code killSeen} the instant this client saw the
         *         kill ({@link HistoryClock#EPOCH_MICROS}): every operation invoked after it is one of the {@code after}
         */
        String runLive(IndexShardServer server, long pauseMillis, int beforeCap, int after) throws InterruptedException {
            return runLive(server, pauseMillis, beforeCap, after, null, beforeCap);
        }

        /**
         * {@link #runLive(IndexShardServer, long, int, int)}, making at most {@code gateCap} of the operations
         * before the kill while the file {@code gate} does not exist, so that the rest wait for what the gate
         * stands for (a step the test takes that lasts minutes in an emulated guest).
         *
         * @return the {@code CLIENT} line
         */
        String runLive(IndexShardServer server, long pauseMillis, int beforeCap, int after, Path gate, int gateCap)
                throws InterruptedException {
            Path killed = dir.resolve("killed");
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            long before = 0;
            while (!Files.exists(killed)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("node " + nodeId + " saw no kill within " + RUN_BOUND);
                }
                int cap = gate == null || before < gateCap || Files.exists(gate) ? beforeCap : gateCap;
                boolean ran = before < cap;
                if (ran) {
                    next();
                    before++;
                }
                long pauseEnd = System.nanoTime() + pauseMillis * 1_000_000;
                while (!ran || System.nanoTime() - pauseEnd < 0) {
                    ran = true;
                    if (server != null) {
                        server.runOnce(Duration.ofMillis(1));
                    } else {
                        Thread.sleep(1);
                    }
                }
            }
            long killSeen = HistoryClock.EPOCH_MICROS.now();
            progress("kill seen node=" + nodeId + " before=" + before);
            for (int i = 0; i < after; i++) {
                next();
                if (server != null) {
                    server.runOnce(Duration.ZERO);
                }
            }
            return "CLIENT node=" + nodeId + " client=" + index.clientId() + " before=" + before + " after=" + after
                    + " killSeen=" + killSeen + " sequence=" + index.sequence() + " attempts=" + index.attempts() + " failedAttempts="
                    + index.failedAttempts() + " notLeader=" + index.notLeaderAnswers() + " retries=" + index.retryAnswers();
        }

        /** {@return the node this client last found, or first guesses, leads shard 0} */
        int leaderGuess() {
            return index.leaderGuess(0);
        }

        /** One journaled operation: put of a value unique to it (4 in 10), get (4 in 10) or delete. */
        void next() {
            long k = 1 + rnd.nextInt(KEYS);
            int pick = rnd.nextInt(10);
            ops++;
            if (pick < 4) {
                long word = ((long) nodeId << 32) | ops;
                int op = journal.invoke(0, MapSpec.PUT, k, word);
                mark(1);
                boolean replaced = index.put(key(k), ByteBuffer.allocate(8).putLong(word).array(), opTimeout);
                mark(0);
                journal.respond(op, replaced ? 0 : 1);
            } else if (pick < 8) {
                int op = journal.invoke(0, MapSpec.GET, k);
                mark(1);
                byte[] v = index.get(key(k), opTimeout);
                mark(0);
                if (v == null) {
                    journal.respond(op, 0);
                } else {
                    journal.respond(op, 1, ByteBuffer.wrap(v).getLong());
                }
            } else {
                int op = journal.invoke(0, MapSpec.REMOVE, k);
                mark(1);
                boolean removed = index.delete(key(k), opTimeout);
                mark(0);
                journal.respond(op, removed ? 1 : 0);
            }
        }

        private void mark(long busy) {
            callStarted.set(0, busy == 0 ? 0 : System.nanoTime());
            if (inFlight != null) {
                inFlight.set(ValueLayout.JAVA_LONG, 0, busy);
            }
        }

        void close() {
            journal.close();
        }
    }
}
