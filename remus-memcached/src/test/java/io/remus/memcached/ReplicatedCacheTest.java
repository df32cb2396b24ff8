package io.remus.memcached;

import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Plane;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replicated memcached store on the simulated fabric under the virtual-time scheduler: one shard replicated on
 * nodes 0, 1, 2, each member's {@link ReplicatedCacheShard} with fail-over on (the lowest live member leads), and
 * clients that are {@link ReplicatedCacheEngine} handles. Every memcached command's semantics through the log, and
 * the leader's process killed while clients run: every acknowledged command survives, none is applied twice, and
 * each key's history of sets, deletes and gets is linearizable.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReplicatedCacheTest {
    private static final long SECOND = 1_000_000_000L;
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));
    private static final ReplicaGroup GROUP = ReplicaGroup.of(0, 1, 2);
    private static final int MAX_ITEM = 200;
    private static final Duration COMMIT = Duration.ofMillis(2);
    private static final Duration TAKEOVER = Duration.ofMillis(20);
    private static final Duration ATTEMPT = Duration.ofMillis(5);
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final int CLIENTS = 3;
    private static final int OPS = 30;
    private static final int KEYS = 3;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Three members' servers on their own threads; a member can be killed as its process would be. */
    private static final class Store implements AutoCloseable {
        final TestCluster cluster = new TestCluster(SimFabric::new, OPTIONS, 3, c -> c.segmentSize(8 << 20));
        final AtomicReferenceArray<ReplicatedCacheShard> servers = new AtomicReferenceArray<>(3);
        final AtomicIntegerArray kill = new AtomicIntegerArray(3);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicLong clock = new AtomicLong(1_700_000_000L);
        final Thread[] threads = new Thread[3];
        final long[] applied = new long[3];
        final long[] duplicates = new long[3];
        final int[] size = new int[3];
        final long[] takeovers = new long[3];
        final long[] fromTable = new long[3];

        void start() {
            for (int n = 0; n < 3; n++) {
                int node = n;
                threads[n] = ThreadTime.newThread("server-" + n, () -> {
                    try (ComputeThread t = cluster.thread(node, Plane.REPLICATION);
                         ComputeThread lt = cluster.thread(node, Plane.REPLICATION)) {
                        ReplicatedCacheShard s = ReplicatedCacheShard.create(cluster.node(node), t, lt, GROUP, "mc-0",
                                0, 1, 32, MAX_ITEM, clock::get, 64, COMMIT, TAKEOVER);
                        servers.set(node, s);
                        while (!stop.get()) {
                            if (kill.get(node) == 1) {
                                return;
                            }
                            if (s.runOnce() == 0) {
                                ThreadTime.parkNanos(null, 2_000);
                            }
                        }
                        s.runOnce();
                        applied[node] = s.machine().applied();
                        duplicates[node] = s.machine().duplicates();
                        size[node] = s.machine().size();
                        takeovers[node] = s.takeovers();
                        fromTable[node] = s.answeredFromTable();
                        s.close();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads[n].start();
            }
            long deadline = ThreadTime.nanoTime() + 10 * SECOND;
            while (servers.get(0) == null || servers.get(0).knownLeader() != 0) {
                if (failure.get() != null) {
                    throw new AssertionError("a server failed", failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("node 0 did not take the shard over");
                }
                ThreadTime.parkNanos(null, 5_000);
            }
        }

        ReplicatedCacheEngine engine(long client) {
            return new ReplicatedCacheEngine(List.of(GROUP), (shard, node) -> kill.get(node) == 1 ? null : servers.get(node),
                    client, MAX_ITEM, ATTEMPT, DEADLINE);
        }

        /**
         * Kills node 0's process: its server thread stops where it is, then its node stops answering (a crash as
         * the fabric sees it: every request to it ends with the transport timeout).
         */
        void killNode0() throws InterruptedException {
            kill.set(0, 1);
            if (!ThreadTime.join(threads[0], 10 * SECOND)) {
                throw new AssertionError("server 0 did not stop");
            }
            ((SimFabric) cluster.fabric()).stopAnswering(0);
        }

        void stopAll() throws InterruptedException {
            ThreadTime.parkNanos(null, 1_000_000);
            stop.set(true);
            for (Thread th : threads) {
                if (!ThreadTime.join(th, 10 * SECOND)) {
                    throw new AssertionError(th.getName() + " did not stop");
                }
            }
            if (failure.get() != null) {
                throw new AssertionError("a server failed", failure.get());
            }
        }

        @Override
        public void close() {
            stop.set(true);
            for (Thread th : threads) {
                try {
                    if (th != null) {
                        ThreadTime.join(th, 10 * SECOND);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            cluster.close();
        }
    }

    @Test
    void shouldRunEveryCommandThroughTheLogOnEveryReplica() {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (Store store = new Store()) {
                store.start();
                ReplicatedCacheEngine e = store.engine(1);
                assertNull(e.get(b("k")));
                assertEquals(StoreResult.STORED, e.store(StoreMode.SET, b("k"), 7, 0, b("v"), 0));
                assertEquals(StoreResult.NOT_STORED, e.store(StoreMode.ADD, b("k"), 0, 0, b("x"), 0));
                assertEquals(StoreResult.NOT_STORED, e.store(StoreMode.REPLACE, b("none"), 0, 0, b("x"), 0));
                assertEquals(StoreResult.STORED, e.store(StoreMode.REPLACE, b("k"), 7, 0, b("w"), 0));
                assertEquals(StoreResult.STORED, e.store(StoreMode.APPEND, b("k"), 0, 0, b("z"), 0));
                assertEquals(StoreResult.STORED, e.store(StoreMode.PREPEND, b("k"), 0, 0, b("a"), 0));
                Item item = e.get(b("k"));
                assertArrayEquals(b("awz"), item.value());
                assertEquals(7, item.flags());
                assertEquals(StoreResult.EXISTS, e.store(StoreMode.CAS, b("k"), 0, 0, b("c"), item.cas() + 1));
                assertEquals(StoreResult.STORED, e.store(StoreMode.CAS, b("k"), 0, 0, b("c"), item.cas()));
                assertEquals(StoreResult.NOT_FOUND, e.store(StoreMode.CAS, b("none"), 0, 0, b("c"), 1));
                assertEquals(StoreResult.NOT_STORED, e.store(StoreMode.APPEND, b("k"), 0, 0, new byte[MAX_ITEM], 0));
                e.store(StoreMode.SET, b("n"), 0, 0, b("41"), 0);
                assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 42), e.arithmetic(b("n"), true, 1));
                assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 0), e.arithmetic(b("n"), false, 100));
                assertEquals(ArithmeticResult.Status.NON_NUMERIC, e.arithmetic(b("k"), true, 1).status());
                assertEquals(ArithmeticResult.Status.NOT_FOUND, e.arithmetic(b("none"), true, 1).status());
                assertTrue(e.touch(b("k"), 10));
                assertFalse(e.touch(b("none"), 10));
                store.clock.addAndGet(10);
                assertNull(e.get(b("k")), "expired by the leader's stamped clock");
                assertTrue(e.delete(b("n")));
                assertFalse(e.delete(b("n")));
                e.store(StoreMode.SET, b("f"), 0, 0, b("v"), 0);
                e.flushAll(0);
                assertNull(e.get(b("f")));
                store.stopAll();
                for (int n = 0; n < 3; n++) {
                    assertEquals(store.applied[0], store.applied[n], "replica " + n + " applied the same entries");
                    assertEquals(store.size[0], store.size[n], "replica " + n + " holds the same items");
                }
                assertEquals(e.sequence(), store.applied[0], "one entry per command");
            } catch (InterruptedException ex) {
                throw new AssertionError(ex);
            }
        });
    }

    /**
     * The leader's process is killed while three clients set, delete and get three keys and each increments its own
     * counter: node 1 takes over, every command completes, each counter equals its client's acknowledged
     * increments (nothing applied twice, nothing acknowledged lost), and each key's history is linearizable.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldSurviveTheLeadersCrashWithEveryAcknowledgedCommandOnce(long seed) {
        List<History> histories = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            histories.add(new History(HistoryClock.NANO_TIME));
        }
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (Store store = new Store()) {
                store.start();
                int killAt = 5 + (int) (seed * 7 % 13);
                long[] increments = new long[CLIENTS];
                AtomicReference<Throwable> clientFailure = new AtomicReference<>();
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    Thread th = ThreadTime.newThread("client-" + c, () -> {
                        try {
                            ReplicatedCacheEngine e = store.engine(1000 + client);
                            SplittableRandom rnd = new SplittableRandom(seed * 31 + client);
                            List<History.Recorder> recorders = new ArrayList<>();
                            for (History h : histories) {
                                recorders.add(h.recorder(client));
                            }
                            for (int i = 0; i < OPS; i++) {
                                if (client == 0 && i == killAt) {
                                    store.killNode0();
                                }
                                int k = rnd.nextInt(KEYS);
                                History.Recorder r = recorders.get(k);
                                byte[] key = b("key" + k);
                                int pick = rnd.nextInt(10);
                                if (pick < 4) {
                                    long v = ((client + 1L) << 32) | (i + 1);
                                    int op = r.invoke(RegisterSpec.WRITE, v);
                                    assertEquals(StoreResult.STORED,
                                            e.store(StoreMode.SET, key, 0, 0, b(Long.toString(v)), 0));
                                    r.respond(op);
                                } else if (pick < 7) {
                                    int op = r.invoke(RegisterSpec.READ);
                                    Item item = e.get(key);
                                    r.respond(op, item == null ? 0 : Long.parseLong(new String(item.value(),
                                            StandardCharsets.US_ASCII)));
                                } else if (pick < 8) {
                                    int op = r.invoke(RegisterSpec.WRITE, 0);
                                    e.delete(key);
                                    r.respond(op);
                                } else {
                                    byte[] counter = b("counter" + client);
                                    if (increments[client] == 0) {
                                        e.store(StoreMode.SET, counter, 0, 0, b("0"), 0);
                                    }
                                    e.arithmetic(counter, true, 1);
                                    increments[client]++;
                                }
                            }
                        } catch (Throwable t) {
                            clientFailure.compareAndSet(null, t);
                        }
                    });
                    clients.add(th);
                    th.start();
                }
                for (Thread th : clients) {
                    if (!ThreadTime.join(th, 120 * SECOND)) {
                        throw new AssertionError(th.getName() + " did not finish");
                    }
                }
                if (clientFailure.get() != null) {
                    StringBuilder view = new StringBuilder();
                    for (int n = 0; n < 3; n++) {
                        ReplicatedCacheShard sv = store.servers.get(n);
                        view.append(" node ").append(n).append(": names ").append(sv.knownLeader()).append(", ")
                                .append(sv.takeovers()).append(" takeovers, ").append(sv.failedTakeovers()).append(" failed (").append(sv.lastTakeoverFailure()).append(");");
                    }
                    AssertionError failed = new AssertionError("a client failed;" + view, clientFailure.get());
                    if (store.failure.get() != null) {
                        failed.addSuppressed(store.failure.get());
                    }
                    throw failed;
                }
                assertEquals(1, store.kill.get(0), "node 0 was killed");
                ReplicatedCacheEngine reader = store.engine(2000);
                for (int c = 0; c < CLIENTS; c++) {
                    Item counter = reader.get(b("counter" + c));
                    long value = counter == null ? 0 : Long.parseLong(new String(counter.value(), StandardCharsets.US_ASCII));
                    assertEquals(increments[c], value, "client " + c + "'s increments, each applied once");
                }
                for (int k = 0; k < KEYS; k++) {
                    History.Recorder r = histories.get(k).recorder(CLIENTS);
                    int op = r.invoke(RegisterSpec.READ);
                    Item item = reader.get(b("key" + k));
                    r.respond(op, item == null ? 0 : Long.parseLong(new String(item.value(), StandardCharsets.US_ASCII)));
                }
                store.stopAll();
                assertTrue(store.takeovers[1] >= 1, "node 1 took the shard over");
                assertEquals(store.applied[1], store.applied[2], "the survivors applied the same entries");
                assertEquals(store.size[1], store.size[2], "the survivors hold the same items");
                assertEquals(store.duplicates[1], store.duplicates[2], "the survivors skipped the same duplicates");
            } catch (InterruptedException ex) {
                throw new AssertionError(ex);
            }
        });
        for (History h : histories) {
            CHECKER.check(h.operations(), new RegisterSpec(1)).assertLinearizable();
        }
    }
}
