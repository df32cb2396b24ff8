package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.spec.MapSpec;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leader change of the index under load, on the simulated fabric under the virtual-time scheduler (ConnectX-5 cost
 * model, 1 ms transport timeout), 2 shards of 3 replicas (nodes 0-2 and 3-5) whose servers run with fail-over on
 * ({@link IndexShardServer#enableFailover}): nobody appoints a leader; each server's own polls elect the lowest live
 * member, which takes its shard over. Shard 0's leader, node 0, is killed or cut off while clients run; the clients'
 * operations, those pending at the crash included, complete through the new leader. Every client's history is
 * checked linearizable key by key with remus-check (a last read of every key after the workload is part of it, so
 * an acknowledged write that was lost would fail the check), and every surviving replica applied each operation
 * exactly once (its state machine applied as many commands as operations were sent to its shard, and its session
 * table holds each client's last sequence).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexFailoverTest {
    private static final long TRANSPORT_TIMEOUT_NANOS = 1_000_000;
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(IndexFailoverTest.TRANSPORT_TIMEOUT_NANOS);
    static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));
    private static final int SLOTS = 64;
    private static final int SUSPECT_AFTER = 64;
    private static final Duration TAKEOVER = Duration.ofMillis(20);
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final int CLIENTS = 3;
    private static final int OPS = 30;
    /** Operations client 0 makes once node 0 leads again after a partition. */
    private static final int LATE_OPS = 5;
    static final int KEYS = 4;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    private static byte[] key(long k) {
        return ("key" + k).getBytes(StandardCharsets.UTF_8);
    }

    /** What a server thread left when it stopped. */
    record Final(boolean leading, long takeovers, long failedTakeovers, long fenced, long recovered, long caughtUp,
                 long applied, long duplicates, String state, long[] lastSequence, long takeoverReads,
                 long takeoverWrites, long takeoverRoundTrips, long fromTable, long takeoverNanos,
                 int takeoverSkipped) {
    }

    /** The servers of every shard with fail-over on, and what each ended with. */
    private static final class Servers {
        final IndexHarness h;
        final Final[] ended;
        final AtomicIntegerArray leading;

        Servers(IndexHarness h) {
            this.h = h;
            this.ended = new Final[h.serverNodes];
            this.leading = new AtomicIntegerArray(h.serverNodes);
        }

        /** Starts each server with fail-over on and waits until each shard's lowest member leads. */
        void start(int clientNodes) {
            for (int n = 0; n < h.serverNodes; n++) {
                int node = n;
                int shard = h.shardOfNode(node);
                Thread th = ThreadTime.newThread("server-" + node, () -> {
                    try (ComputeThread t = h.cluster.thread(node, Plane.REPLICATION); ComputeThread lt = h.cluster.thread(node, Plane.REPLICATION)) {
                        IndexShardServer server = IndexShardServer.create(h.cluster.node(node), t, h.endpoints[node],
                                h.shards, shard, SLOTS, IndexHarness.COMMIT);
                        h.servers[node] = server;
                        server.enableFailover(lt, SUSPECT_AFTER, TAKEOVER);
                        h.ready.incrementAndGet();
                        while (!h.stop.get()) {
                            server.runOnce(Duration.ofNanos(20_000));
                            leading.set(node, server.isLeader() ? 1 : 0);
                        }
                        server.runOnce(Duration.ZERO);
                        long[] last = new long[clientNodes];
                        for (int c = 0; c < clientNodes; c++) {
                            last[c] = server.machine().lastSequence(1000 + h.serverNodes + c);
                        }
                        IndexStateMachine m = server.machine();
                        ended[node] = new Final(server.isLeader(), server.takeovers(), server.failedTakeovers(),
                                server.fencedWrites(), server.recoveredEntries(), server.caughtUpFollowers(), m.applied(),
                                m.duplicates(), m.describe(), last, server.lastTakeoverReads(), server.lastTakeoverWrites(),
                                server.lastTakeoverRoundTrips(), server.answeredFromTable(), server.lastTakeoverNanos(),
                                server.lastTakeoverSuspectsSkipped());
                        server.close();
                    } catch (Throwable e) {
                        h.failure.compareAndSet(null, e);
                    }
                });
                h.threads.add(th);
                th.start();
            }
            for (int s = 0; s < h.shards.count(); s++) {
                awaitLeader(h.shards.group(s).member(0));
            }
        }

        void awaitLeader(int node) {
            long deadline = ThreadTime.nanoTime() + 10 * IndexHarness.SECOND;
            while (leading.get(node) == 0) {
                if (h.failure.get() != null) {
                    throw new AssertionError("a server failed", h.failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("node " + node + " did not take its shard over");
                }
                ThreadTime.parkNanos(null, 1_000);
            }
        }
    }

    /** Per client and shard, the operations sent there and the last sequence sent there. */
    static final class Sent {
        final long[][] ops;
        final long[][] lastSeq;

        Sent(int clients, int shards) {
            ops = new long[clients][shards];
            lastSeq = new long[clients][shards];
        }
    }

    /**
     * One random operation of client {@code c} on key {@code k}, recorded in {@code r}: 40 % put of a value unique
     * to the put, 40 % get, 20 % delete.
     */
    static void operate(RemusIndex index, History.Recorder r, SplittableRandom rnd, int c, int i, long k, Sent sent,
                                IndexShards shards) {
        int shard = shards.shardOf(key(k));
        synchronized (sent) {
            sent.ops[c][shard]++;
            sent.lastSeq[c][shard] = index.sequence() + 1;
        }
        int pick = rnd.nextInt(10);
        if (pick < 4) {
            long word = ((c + 1L) << 32) | (i + 1);
            int op = r.invoke(MapSpec.PUT, k, word);
            boolean replaced = index.put(key(k), ByteBuffer.allocate(8).putLong(word).array(), DEADLINE);
            r.respond(op, replaced ? 0 : 1);
        } else if (pick < 8) {
            read(index, r, k);
        } else {
            int op = r.invoke(MapSpec.REMOVE, k);
            r.respond(op, index.delete(key(k), DEADLINE) ? 1 : 0);
        }
    }

    private static void read(RemusIndex index, History.Recorder r, long k) {
        int op = r.invoke(MapSpec.GET, k);
        byte[] v = index.get(key(k), DEADLINE);
        if (v == null) {
            r.respond(op, 0);
        } else {
            r.respond(op, 1, ByteBuffer.wrap(v).getLong());
        }
    }

    /** Client 0 reads every key once every client is done; the reads go through the new leader. */
    static void finalReads(RemusIndex index, History.Recorder r, AtomicInteger done, int clients, Sent sent,
                                   IndexShards shards) {
        done.incrementAndGet();
        while (done.get() < clients) {
            ThreadTime.parkNanos(null, 5_000);
        }
        for (long k = 1; k <= KEYS; k++) {
            int shard = shards.shardOf(key(k));
            synchronized (sent) {
                sent.ops[0][shard]++;
                sent.lastSeq[0][shard] = index.sequence() + 1;
            }
            read(index, r, k);
        }
    }

    /**
     * The replicas of each shard that are still up ended in the same state, each applied every operation sent to
     * its shard exactly once and holds each client's last sequence there.
     */
    static void checkExactlyOnce(IndexHarness h, Final[] ended, Sent sent, int clients, int downNode) {
        for (int s = 0; s < h.shards.count(); s++) {
            ReplicaGroup g = h.shards.group(s);
            long expected = 0;
            for (int c = 0; c < clients; c++) {
                expected += sent.ops[c][s];
            }
            String state = null;
            for (int m = 0; m < g.size(); m++) {
                int node = g.member(m);
                if (node == downNode) {
                    continue;
                }
                Final f = ended[node];
                assertEquals(expected, f.applied(), "node " + node + " applied each of the " + expected
                        + " operations sent to shard " + s + " exactly once");
                for (int c = 0; c < clients; c++) {
                    assertEquals(sent.lastSeq[c][s], f.lastSequence()[c], "node " + node + ": client " + c
                            + "'s last sequence in shard " + s);
                }
                if (state == null) {
                    state = f.state();
                } else {
                    assertEquals(state, f.state(), "node " + node + " ended like the other survivors of shard " + s);
                }
            }
        }
    }

    /**
     * Node 0 stops answering (a crash, as the fabric sees it) while three clients run: nodes 1 and 2 suspect it,
     * elect node 1, which takes over, recovers what node 0 committed, applies it and serves; every operation
     * completes, the history is linearizable, nothing is applied twice or lost.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFailOverWhenTheLeaderCrashesMidWorkload(long seed) {
        runKill(seed, 0);
    }

    /**
     * Node 0 is cut off right before an append's WRITEs (the entry is in its own log only; its client never gets
     * an answer and resends it to the new leader).
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFailOverWhenTheLeaderIsCutOffBeforeItsAppend(long seed) {
        runKill(seed, 1);
    }

    /**
     * Node 0 is cut off right after an append returned (the entry is at a majority, its commit not yet flushed, its
     * client unanswered): the new leader recovers the entry and applies it, and the client's resend is answered from
     * the session table, so the operation takes effect once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFailOverWhenTheLeaderIsCutOffMidAppend(long seed) {
        runKill(seed, 2);
    }

    /** {@code how}: 0 stop answering from a client mid-workload, 1 isolate before an append, 2 isolate after one. */
    private static void runKill(long seed, int how) {
        IndexShards shards = IndexShards.of("fo", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(3, 4, 5));
        History history = new History(HistoryClock.NANO_TIME);
        Sent sent = new Sent(CLIENTS, 2);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 6, CLIENTS, SLOTS)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                Servers servers = new Servers(h);
                servers.start(CLIENTS);
                int killAt = 8 + (int) (seed * 7 % 13);
                AtomicLong killedAtAppend = new AtomicLong(-1);
                if (how > 0) {
                    AtomicInteger appends = new AtomicInteger();
                    Runnable hook = () -> {
                        if (appends.incrementAndGet() == killAt) {
                            fabric.isolate(0);
                            killedAtAppend.set(killAt);
                        }
                    };
                    if (how == 1) {
                        h.servers[0].beforeAppend = hook;
                    } else {
                        h.servers[0].afterAppend = hook;
                    }
                }
                AtomicInteger done = new AtomicInteger();
                AtomicLong unanswered = new AtomicLong();
                h.runClients(CLIENTS, (c, index) -> {
                    History.Recorder r = history.recorder(c);
                    SplittableRandom rnd = new SplittableRandom(seed * 31 + c);
                    for (int i = 0; i < OPS; i++) {
                        if (how == 0 && c == 0 && i == killAt) {
                            fabric.stopAnswering(0);
                        }
                        operate(index, r, rnd, c, i, 1 + rnd.nextInt(KEYS), sent, shards);
                    }
                    if (c == 0) {
                        finalReads(index, r, done, CLIENTS, sent, shards);
                    } else {
                        done.incrementAndGet();
                    }
                    unanswered.addAndGet(index.failedAttempts());
                });
                h.stopServers(1_000_000);
                if (how > 0) {
                    assertEquals(killAt, killedAtAppend.get(), "node 0 was cut off at its append " + killAt);
                }
                Final f1 = servers.ended[1];
                assertTrue(f1.leading(), "node 1 leads shard 0 after node 0 went");
                assertTrue(f1.takeovers() >= 1, "node 1 took over");
                assertTrue(servers.ended[3].leading() && servers.ended[3].takeovers() == 1, "shard 1 kept its leader");
                checkExactlyOnce(h, servers.ended, sent, CLIENTS, 0);
                assertTrue(f1.takeoverWrites() >= 1 && f1.takeoverWrites() <= f1.recovered() + 1,
                        "the takeover WRITEs node 2 what it lacks and the commit count: " + f1.takeoverWrites());
                assertTrue(f1.takeoverReads() >= 6 && f1.takeoverRoundTrips() >= f1.takeoverReads(),
                        "lookups, shapes, terms, promises and logs READ one at a time: " + f1.takeoverReads() + " READs, "
                                + f1.takeoverRoundTrips() + " round trips");
                assertEquals(1, f1.takeoverSkipped(), "the takeover did not look the suspected old leader up");
                assertTrue(f1.takeoverNanos() < TRANSPORT_TIMEOUT_NANOS, "no transport timeout in the takeover: "
                        + f1.takeoverNanos() + " ns of virtual time");
                if (how > 0) {
                    assertTrue(unanswered.get() >= 1, "the request in flight at the cut went unanswered and was resent");
                    assertTrue(servers.ended[0].failedTakeovers() >= 1, "the cut-off node's own takeover found no majority");
                }
                if (how == 2) {
                    assertTrue(f1.fromTable() >= 1, "the resent request, recovered from the log, was answered from the table");
                }
            }
        });
        assertEquals(CLIENTS * OPS + KEYS, history.operations().size());
        CHECKER.checkByKey(history.operations(), new MapSpec()).assertLinearizable();
    }

    /**
     * Node 0, shard 0's leader, is isolated between two phases of the workload: it still takes itself as leader (it
     * suspects the others, never itself), while nodes 1 and 2 elect node 1, which takes over; the clients, whose
     * calls to node 0 fail, move to node 1. After the partition heals, a new client (whose first guess is node 0)
     * calls node 0, whose append is refused by the members that granted node 1 (counted as fenced WRITEs): node 0
     * stops leading and answers {@code NOT_LEADER}, and the client moves on. Node 0, elected again as the lowest live
     * node, then takes over with a higher term, so every member ends up applying the same operations exactly once.
     * Once node 0 leads again, client 0, whose endpoint lost node 0 while it was cut off, is sent there and served
     * by it: its endpoint probes node 0 and calls it again.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFenceAPartitionedOldLeaderAndMoveItsClients(long seed) {
        IndexShards shards = IndexShards.of("fp", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(3, 4, 5));
        History history = new History(HistoryClock.NANO_TIME);
        int clients = CLIENTS + 1;
        Sent sent = new Sent(clients, 2);
        long[] late = new long[2];
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 6, clients, SLOTS)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                Servers servers = new Servers(h);
                servers.start(clients);
                AtomicInteger phase = new AtomicInteger();
                AtomicInteger arrived = new AtomicInteger();
                List<Long> fencedBefore = new ArrayList<>();
                boolean[] lostThenServed = new boolean[3];
                h.runClients(clients, (c, index) -> {
                    History.Recorder r = history.recorder(c);
                    SplittableRandom rnd = new SplittableRandom(seed * 31 + c);
                    if (c < CLIENTS) {
                        for (int i = 0; i < OPS; i++) {
                            if (i == OPS / 2) {
                                arrived.incrementAndGet();
                                if (c == 0) {
                                    while (arrived.get() < CLIENTS) {
                                        ThreadTime.parkNanos(null, 5_000);
                                    }
                                    fabric.isolate(0);
                                    phase.set(1);
                                }
                                while (phase.get() < 1) {
                                    ThreadTime.parkNanos(null, 5_000);
                                }
                            }
                            operate(index, r, rnd, c, i, 1 + rnd.nextInt(KEYS), sent, shards);
                        }
                        if (arrived.incrementAndGet() == 2 * CLIENTS) {
                            fencedBefore.add((long) h.servers[0].fencedWrites());
                            fabric.heal();
                            phase.set(2);
                        }
                        if (c == 0) {
                            RpcEndpoint mine = h.endpoints[6 + c];
                            lostThenServed[0] = mine.isLost(0);
                            while (phase.get() < 3) {
                                ThreadTime.parkNanos(null, 5_000);
                            }
                            long revivals = mine.revivals();
                            for (int i = 0; i < LATE_OPS; i++) {
                                operate(index, r, rnd, c, OPS + i, 1 + rnd.nextInt(KEYS), sent, shards);
                            }
                            lostThenServed[1] = index.leaderGuess(0) == 0;
                            lostThenServed[2] = mine.revivals() > revivals;
                        }
                        return;
                    }
                    while (phase.get() < 2) {
                        ThreadTime.parkNanos(null, 5_000);
                    }
                    ThreadTime.parkNanos(null, 200_000);
                    assertEquals(0, index.leaderGuess(0), "the new client first calls node 0");
                    for (int i = 0; i < 10; i++) {
                        operate(index, r, rnd, c, i, 1 + rnd.nextInt(KEYS), sent, shards);
                    }
                    for (long k = 1; k <= KEYS; k++) {
                        int shard = shards.shardOf(key(k));
                        synchronized (sent) {
                            sent.ops[c][shard]++;
                            sent.lastSeq[c][shard] = index.sequence() + 1;
                        }
                        read(index, r, k);
                    }
                    late[0] = index.notLeaderAnswers();
                    late[1] = index.failedAttempts();
                    for (int i = 0; i < 2_000 && !h.servers[0].isLeader(); i++) {
                        ThreadTime.parkNanos(null, 20_000);
                    }
                    phase.set(3);
                });
                h.stopServers(1_000_000);
                Final f0 = servers.ended[0];
                Final f1 = servers.ended[1];
                assertEquals(List.of(0L), fencedBefore, "node 0 was not fenced while cut off");
                assertTrue(f0.fenced() >= 1, "the old leader's append was refused and counted: " + f0.fenced());
                assertTrue(f1.takeovers() >= 1, "node 1 took over while node 0 was cut off");
                assertTrue(late[0] >= 1, "the new client was told node 0 does not lead: " + late[0]);
                assertTrue(lostThenServed[0], "client 0's endpoint lost node 0 while it was cut off");
                assertTrue(lostThenServed[1], "client 0 was served by node 0, leading again");
                assertTrue(lostThenServed[2], "client 0's endpoint probed node 0 and called it again");
                checkExactlyOnce(h, servers.ended, sent, clients, -1);
            }
        });
        assertEquals(CLIENTS * OPS + LATE_OPS + 10 + KEYS, history.operations().size());
        CHECKER.checkByKey(history.operations(), new MapSpec()).assertLinearizable();
    }

    /**
     * A grant is a node's, not a log's: with shard 0's server on node 0 failing over, shard 1's server on the same
     * node may neither fail over (refused naming the node and both shards, before anything is READ) nor switch the
     * node's grant (refused naming both logs); once shard 0's server closes, shard 1's grants are its own again.
     */
    @Test
    void shouldRefuseASecondShardFailingOverOnOneNode() {
        IndexShards shards = IndexShards.of("fg", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(1, 2, 0));
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, 0, 8);
                 ComputeThread t0 = h.cluster.thread(0);
                 ComputeThread lt0 = h.cluster.thread(0, Plane.REPLICATION);
                 ComputeThread u0 = h.cluster.thread(0);
                 ComputeThread lu0 = h.cluster.thread(0, Plane.REPLICATION);
                 ComputeThread t1 = h.cluster.thread(1);
                 ComputeThread t2 = h.cluster.thread(2)) {
                IndexShardServer first = IndexShardServer.create(h.cluster.node(0), t0, h.endpoints[0], shards, 0, 8,
                        IndexHarness.COMMIT);
                IndexShardServer on1 = IndexShardServer.create(h.cluster.node(1), t1, h.endpoints[1], shards, 0, 8,
                        IndexHarness.COMMIT);
                IndexShardServer on2 = IndexShardServer.create(h.cluster.node(2), t2, h.endpoints[2], shards, 0, 8,
                        IndexHarness.COMMIT);
                IndexShardServer second = IndexShardServer.create(h.cluster.node(0), u0, h.endpoints[0], shards, 1, 8,
                        IndexHarness.COMMIT);
                first.enableFailover(lt0, 4, TAKEOVER);
                long reads = u0.postedOperations(io.remus.core.fabric.Opcode.READ);
                BadArgumentException twice = assertThrows(BadArgumentException.class,
                        () -> second.enableFailover(lu0, 4, TAKEOVER));
                String m = twice.getMessage();
                assertTrue(m.contains("node 0") && m.contains("shard 0") && m.contains("shard 1"), m);
                assertEquals(reads, u0.postedOperations(io.remus.core.fabric.Opcode.READ), "nothing READ");
                assertFalse(second.hasFailover());
                BadArgumentException grant = assertThrows(BadArgumentException.class, () -> second.grantWriteTo(1));
                String g = grant.getMessage();
                assertTrue(g.contains("node 0") && g.contains(shards.logName(0)) && g.contains(shards.logName(1)), g);
                assertEquals(-1, second.replica().grantedTo(), "nothing switched");
                first.close();
                second.grantWriteTo(1);
                assertEquals(1, second.replica().grantedTo());
                second.close();
                on1.close();
                on2.close();
            }
        });
    }

    /**
     * A grant is a node's plane's: with the two shards' groups on different planes, shard 0's and shard 1's servers on
     * one node both fail over and grant different leaders; a leader thread off its shard's plane is refused naming
     * both planes, before anything is READ.
     */
    @Test
    void shouldLetShardsOnDifferentPlanesFailOverOnOneNode() {
        IndexShards shards = IndexShards.of("fp", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(1, 2, 0).onPlane(2));
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, 0, 8);
                 ComputeThread t0 = h.cluster.thread(0);
                 ComputeThread lt0 = h.cluster.thread(0, Plane.REPLICATION);
                 ComputeThread u0 = h.cluster.thread(0);
                 ComputeThread lu0 = h.cluster.thread(0, 2);
                 ComputeThread wrong = h.cluster.thread(0, Plane.REPLICATION);
                 ComputeThread t1 = h.cluster.thread(1);
                 ComputeThread u1 = h.cluster.thread(1);
                 ComputeThread t2 = h.cluster.thread(2);
                 ComputeThread u2 = h.cluster.thread(2)) {
                IndexShardServer first = IndexShardServer.create(h.cluster.node(0), t0, h.endpoints[0], shards, 0, 8,
                        IndexHarness.COMMIT);
                IndexShardServer second = IndexShardServer.create(h.cluster.node(0), u0, h.endpoints[0], shards, 1, 8,
                        IndexHarness.COMMIT);
                IndexShardServer[] others = {
                    IndexShardServer.create(h.cluster.node(1), t1, h.endpoints[1], shards, 0, 8, IndexHarness.COMMIT),
                    IndexShardServer.create(h.cluster.node(1), u1, h.endpoints[1], shards, 1, 8, IndexHarness.COMMIT),
                    IndexShardServer.create(h.cluster.node(2), t2, h.endpoints[2], shards, 0, 8, IndexHarness.COMMIT),
                    IndexShardServer.create(h.cluster.node(2), u2, h.endpoints[2], shards, 1, 8, IndexHarness.COMMIT)};
                first.enableFailover(lt0, 4, TAKEOVER);
                long reads = u0.postedOperations(io.remus.core.fabric.Opcode.READ);
                BadArgumentException off = assertThrows(BadArgumentException.class,
                        () -> second.enableFailover(wrong, 4, TAKEOVER));
                String m = off.getMessage();
                assertTrue(m.contains("plane 1") && m.contains("plane 2") && m.contains("shard 1"), m);
                assertEquals(reads, u0.postedOperations(io.remus.core.fabric.Opcode.READ), "nothing READ");
                second.enableFailover(lu0, 4, TAKEOVER);
                assertTrue(first.hasFailover() && second.hasFailover());
                first.close();
                second.close();
                for (IndexShardServer o : others) {
                    o.close();
                }
            }
        });
    }

    /**
     * Fail-over's bad input is refused typed, naming the value, before any RDMA operation: the server's own compute
     * thread or another node's as the leader's, a {@code suspectAfter} below 1, and a timeout that is not positive.
     */
    @Test
    void shouldRefuseBadFailoverArguments() {
        IndexShards shards = IndexShards.of("fb", ReplicaGroup.of(0, 1, 2));
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, 0, 8);
                 ComputeThread t = h.cluster.thread(0);
                 ComputeThread lt = h.cluster.thread(0, Plane.REPLICATION);
                 ComputeThread other = h.cluster.thread(1)) {
                IndexShardServer server = IndexShardServer.create(h.cluster.node(0), t, h.endpoints[0], shards, 0, 8,
                        IndexHarness.COMMIT);
                long reads = t.postedOperations(io.remus.core.fabric.Opcode.READ);
                BadArgumentException own = assertThrows(BadArgumentException.class,
                        () -> server.enableFailover(t, 4, TAKEOVER));
                assertTrue(own.getMessage().contains("the server's own"), own.getMessage());
                BadArgumentException node = assertThrows(BadArgumentException.class,
                        () -> server.enableFailover(other, 4, TAKEOVER));
                assertTrue(node.getMessage().contains("node 1"), node.getMessage());
                BadArgumentException suspect = assertThrows(BadArgumentException.class,
                        () -> server.enableFailover(lt, 0, TAKEOVER));
                assertTrue(suspect.getMessage().contains("0"), suspect.getMessage());
                assertThrows(BadArgumentException.class, () -> server.enableFailover(lt, 4, Duration.ZERO));
                assertEquals(reads, t.postedOperations(io.remus.core.fabric.Opcode.READ), "nothing READ");
                assertFalse(server.hasFailover());
                server.close();
            }
        });
    }
}
