package io.remus.ds.index;

import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.spec.MapSpec;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Plane;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server process of the index killed and started again with new memory, on the simulated fabric under the
 * virtual-time scheduler (ConnectX-5 cost model, 1 ms transport timeout): one shard of 3 replicas (nodes 0-2) with
 * fail-over on, three clients. Mid-workload follower node 2's process dies between two of its polls
 * ({@link io.remus.core.sim.SimFabric#crash}) and starts again ({@link IndexHarness#restart}: a new incarnation,
 * new rings) with {@link IndexShardServer#rejoin}; the leader catches its log up and it applies and answers
 * {@code NOT_LEADER} like any follower, and the clients' endpoints learn its new rings. Once it has caught up, the
 * leader's process dies too: nodes 1 and 2 elect node 1, whose takeover needs node 2's log (a majority of logs not
 * recovering). Every operation completes; the history, with a last read of every key, is linearizable key by key
 * (remus-check), and nodes 1 and 2 applied every operation exactly once and end in one state.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexRestartTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    /** Slots enough that the restarted member, rejoining before the ring wraps, is caught up from the leader's ring. */
    private static final int SLOTS = 64;
    private static final int SUSPECT_AFTER = 64;
    private static final Duration TAKEOVER = Duration.ofMillis(20);
    private static final Duration REJOIN = Duration.ofSeconds(1);
    private static final int CLIENTS = 3;
    private static final int OPS = 18;
    private static final int RESTARTED = 2;
    private static final int OLD_LEADER = 0;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    /** The server threads, each of which can be told to die (stop between two polls, closing nothing). */
    private static final class Servers {
        final IndexHarness h;
        final IndexFailoverTest.Final[] ended;
        final AtomicIntegerArray leading;
        final AtomicIntegerArray die;
        final AtomicIntegerArray dead;
        final AtomicBoolean caughtUp = new AtomicBoolean();
        volatile IndexShardServer reborn;

        Servers(IndexHarness h) {
            this.h = h;
            this.ended = new IndexFailoverTest.Final[h.serverNodes];
            this.leading = new AtomicIntegerArray(h.serverNodes);
            this.die = new AtomicIntegerArray(h.serverNodes);
            this.dead = new AtomicIntegerArray(h.serverNodes);
        }

        void start(int node, boolean rejoin) {
            die.set(node, 0);
            dead.set(node, 0);
            Thread th = ThreadTime.newThread("server-" + node + (rejoin ? "-rejoined" : ""), () -> {
                ComputeThread t = h.cluster.thread(node, Plane.REPLICATION);
                ComputeThread lt = h.cluster.thread(node, Plane.REPLICATION);
                try {
                    IndexShardServer server = rejoin
                            ? IndexShardServer.rejoin(h.cluster.node(node), t, h.endpoints[node], h.shards, 0, SLOTS, 0, 0,
                                    IndexHarness.COMMIT, REJOIN)
                            : IndexShardServer.create(h.cluster.node(node), t, h.endpoints[node], h.shards, 0, SLOTS,
                                    IndexHarness.COMMIT);
                    if (rejoin) {
                        assertTrue(server.isRecovering(), "a rejoined log starts recovering");
                        reborn = server;
                    }
                    h.servers[node] = server;
                    server.enableFailover(lt, SUSPECT_AFTER, TAKEOVER);
                    while (!h.stop.get()) {
                        if (die.get(node) == 1) {
                            dead.set(node, 1);
                            return;
                        }
                        server.runOnce(Duration.ofNanos(20_000));
                        leading.set(node, server.isLeader() ? 1 : 0);
                        if (rejoin && !server.isRecovering()) {
                            caughtUp.set(true);
                        }
                    }
                    server.runOnce(Duration.ZERO);
                    long[] last = new long[CLIENTS];
                    for (int c = 0; c < CLIENTS; c++) {
                        last[c] = server.machine().lastSequence(1000 + h.serverNodes + c);
                    }
                    IndexStateMachine m = server.machine();
                    ended[node] = new IndexFailoverTest.Final(server.isLeader(), server.takeovers(),
                            server.failedTakeovers(), server.fencedWrites(), server.recoveredEntries(),
                            server.caughtUpFollowers(), m.applied(), m.duplicates(), m.describe(), last,
                            server.lastTakeoverReads(), server.lastTakeoverWrites(), server.lastTakeoverRoundTrips(),
                            server.answeredFromTable(), server.lastTakeoverNanos(), server.lastTakeoverSuspectsSkipped());
                    server.close();
                    lt.close();
                    t.close();
                } catch (Throwable e) {
                    h.failure.compareAndSet(null, e);
                }
            });
            h.threads.add(th);
            th.start();
        }

        /** Stops node {@code node}'s server thread between two polls and, unless it restarts next, kills its process. */
        void kill(int node, boolean crash) {
            die.set(node, 1);
            await(() -> dead.get(node) == 1, "node " + node + "'s server to stop");
            if (crash) {
                ((SimFabric) h.cluster.fabric()).crash(node);
            }
        }

        void await(java.util.function.BooleanSupplier done, String what) {
            long deadline = ThreadTime.nanoTime() + 10 * IndexHarness.SECOND;
            while (!done.getAsBoolean()) {
                if (h.failure.get() != null) {
                    throw new AssertionError("a server failed", h.failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("waited in vain for " + what);
                }
                ThreadTime.parkNanos(null, 1_000);
            }
        }
    }

    /**
     * Follower node 2 is killed and restarted mid-workload, rejoins and is caught up; then leader node 0 is killed
     * and node 1 takes over with node 2's log; nothing acknowledged is lost, nothing applied twice.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldRejoinARestartedFollowerAndFailOverWithItWhenTheLeaderDies(long seed) {
        IndexShards shards = IndexShards.of("rs", ReplicaGroup.of(0, 1, 2));
        History history = new History(HistoryClock.NANO_TIME);
        IndexFailoverTest.Sent sent = new IndexFailoverTest.Sent(CLIENTS, 1);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, CLIENTS, SLOTS)) {
                Servers servers = new Servers(h);
                for (int n = 0; n < 3; n++) {
                    servers.start(n, false);
                }
                servers.await(() -> servers.leading.get(OLD_LEADER) == 1, "node 0 to lead");
                int restartAt = 3 + (int) (seed % 4);
                int killLeaderAt = 11 + (int) (seed % 4);
                AtomicInteger done = new AtomicInteger();
                h.runClients(CLIENTS, (c, index) -> {
                    History.Recorder r = history.recorder(c);
                    SplittableRandom rnd = new SplittableRandom(seed * 31 + c);
                    for (int i = 0; i < OPS; i++) {
                        if (c == 0 && i == restartAt) {
                            servers.kill(RESTARTED, false);
                            h.restart(RESTARTED);
                            servers.start(RESTARTED, true);
                        }
                        if (c == 0 && i == killLeaderAt) {
                            servers.await(servers.caughtUp::get, "the restarted member to be caught up");
                            servers.kill(OLD_LEADER, true);
                        }
                        IndexFailoverTest.operate(index, r, rnd, c, i, 1 + rnd.nextInt(IndexFailoverTest.KEYS), sent,
                                shards);
                    }
                    if (c == 0) {
                        IndexFailoverTest.finalReads(index, r, done, CLIENTS, sent, shards);
                    } else {
                        done.incrementAndGet();
                    }
                });
                h.stopServers(1_000_000);
                IndexFailoverTest.Final f1 = servers.ended[1];
                IndexFailoverTest.Final f2 = servers.ended[RESTARTED];
                assertTrue(f1.leading() && f1.takeovers() >= 1, "node 1 took the shard over after node 0 died");
                assertFalse(f2.leading(), "the restarted member follows");
                IndexFailoverTest.checkExactlyOnce(h, servers.ended, sent, CLIENTS, OLD_LEADER);
                assertEquals(0, f2.duplicates(), "the restarted member applied nothing twice");
            }
        });
        assertEquals(CLIENTS * OPS + IndexFailoverTest.KEYS, history.operations().size());
        IndexFailoverTest.CHECKER.checkByKey(history.operations(), new MapSpec()).assertLinearizable();
    }
}
