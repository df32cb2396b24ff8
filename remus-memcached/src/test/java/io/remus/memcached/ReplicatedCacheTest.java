package io.remus.memcached;

import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
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
import java.util.concurrent.atomic.AtomicReference;
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
    private static final int MAX_ITEM = ReplicatedStore.MAX_ITEM;
    private static final int CLIENTS = 3;
    private static final int OPS = 30;
    private static final int KEYS = 3;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldRunEveryCommandThroughTheLogOnEveryReplica() {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (ReplicatedStore store = new ReplicatedStore(OPTIONS, 64)) {
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
            try (ReplicatedStore store = new ReplicatedStore(OPTIONS, 64)) {
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
