package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.spec.MapSpec;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.verbs.VerbsFabric;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index service on the verbs fabric (device {@code REMUS_TEST_DEVICE}), five nodes of this JVM on the one
 * device: 2 shards of 3 replicas on nodes 0-2 ({@link #SHARDS}: shard 0 is {0, 1, 2}, led by node 0; shard 1 is
 * {1, 2, 0}, led by node 1), so that every server node serves both shards from one {@link RpcEndpoint} on one Java
 * thread, one {@link IndexShardServer} and compute thread per shard; nodes 3 and 4 are clients, each on a thread of
 * its own. No member switches its grant ({@link IndexShardServer#grantWriteTo}): a node's peer access is the node's,
 * not a log's, so two shards with different leaders on one node cannot both fence; the clients find each leader as
 * member 0 of its group.
 *
 * <p>Checks, on counts and contents: every result against a model, every replica of each shard ending in the same
 * map and session table, each leader's map equal to the model, one append per operation and 4 WRITEs per append at
 * each leader, every operation at its first attempt; two clients' concurrent histories on shared keys linearizable
 * per key (remus-check); a request resent with the same client id and sequence answered
 * from the session table and applied once. Run in the Soft-RoCE suite, where an operation costs 20 to 100 times
 * what it costs on a host, so every wait is bounded in minutes.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class IndexOnVerbsTest {
    /** Every wait's bound: generous for an emulated guest. */
    static final Duration WAIT = Duration.ofMinutes(3);
    /** How long a leader waits for a majority per request. */
    static final Duration COMMIT = Duration.ofSeconds(30);
    /** How long a client's attempt waits for an answer: longer than a commit. */
    static final Duration ATTEMPT = Duration.ofSeconds(60);
    static final int SERVERS = 3;
    static final int CLIENTS = 2;
    static final int SLOTS = 256;
    static final IndexShards SHARDS = IndexShards.of("rxe-kv", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(1, 2, 0));
    /** How long a server thread that served nothing parks: it leaves the guest's few processors to the others. */
    private static final Duration IDLE = Duration.ofNanos(20_000);

    /** {@return the fabric the five nodes share: the verbs fabric on {@code REMUS_TEST_DEVICE}} */
    Function<SimOptions, Fabric> fabric() {
        return options -> VerbsFabric.open(DeviceTests.deviceName());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Two clients, each with twelve keys of its own spread over both shards: puts of new keys, gets, replacing
     * puts, deletes (and a second delete of each, which finds nothing), and a last get of every key, each result
     * checked against the model.
     */
    @DeviceTest
    void shouldPutGetAndDeleteAcrossTwoShardsAsTheModelSays() throws InterruptedException {
        try (Servers h = new Servers(fabric())) {
            h.start();
            int keys = 12;
            Map<String, String> model = new ConcurrentHashMap<>();
            long[] attempts = new long[CLIENTS];
            long[] ops = new long[CLIENTS];
            h.runClients(CLIENTS, (c, index) -> {
                for (int i = 0; i < keys; i++) {
                    String k = "key-" + c + "-" + i;
                    assertFalse(index.put(bytes(k), bytes("v" + i), WAIT), k + " was new");
                    model.put(k, "v" + i);
                }
                for (int i = 0; i < keys; i++) {
                    String k = "key-" + c + "-" + i;
                    assertArrayEquals(bytes("v" + i), index.get(bytes(k), WAIT), k);
                }
                for (int i = 0; i < keys; i += 2) {
                    String k = "key-" + c + "-" + i;
                    assertTrue(index.put(bytes(k), bytes("w" + i + "-" + c), WAIT), k + " had a value");
                    model.put(k, "w" + i + "-" + c);
                }
                for (int i = 0; i < keys; i += 3) {
                    String k = "key-" + c + "-" + i;
                    assertTrue(index.delete(bytes(k), WAIT), k + " had a value to delete");
                    assertFalse(index.delete(bytes(k), WAIT), k + " was deleted already");
                    model.remove(k);
                }
                for (int i = 0; i < keys; i++) {
                    String k = "key-" + c + "-" + i;
                    String v = model.get(k);
                    byte[] got = index.get(bytes(k), WAIT);
                    if (v == null) {
                        assertNull(got, k + " was deleted");
                    } else {
                        assertArrayEquals(bytes(v), got, k);
                    }
                }
                attempts[c] = index.attempts();
                ops[c] = index.sequence();
            });
            h.stop();
            long total = 0;
            for (int c = 0; c < CLIENTS; c++) {
                assertEquals(12 + 12 + 6 + 8 + 12, ops[c], "operations of client " + c);
                assertEquals(ops[c], attempts[c], "every operation of client " + c + " reached its leader at the first attempt");
            }
            h.assertReplicasEqual();
            for (int s = 0; s < SHARDS.count(); s++) {
                int leader = SHARDS.group(s).member(0);
                assertEquals(expectedMap(s, model), mapPart(h.state(leader, s)), "shard " + s + "'s map");
                assertTrue(h.appends(leader, s) > 0, "shard " + s + " served operations");
                assertEquals(h.appends(leader, s), h.applied(leader, s), "every append applied once on shard " + s);
                assertEquals(4 * h.appends(leader, s), h.leaderWrites(leader, s),
                        "4 WRITEs per operation at shard " + s + "'s leader: the append's 2 and the commit flush's 2");
                total += h.appends(leader, s);
            }
            assertEquals(ops[0] + ops[1], total, "one append per operation");
        }
    }

    /**
     * Two clients at once on four shared keys (40 % put of a value unique to the put, 40 % get, 20 % delete), each
     * operation recorded with remus-check: every key's history is linearizable against {@link MapSpec}, every replica
     * of each shard ends equal, and each operation was appended once.
     */
    @DeviceTest
    void shouldBeLinearizablePerKeyWithTwoConcurrentClientsOnSharedKeys() throws InterruptedException {
        int opsPerClient = 40;
        History history = new History(HistoryClock.NANO_TIME);
        try (Servers h = new Servers(fabric())) {
            h.start();
            h.runClients(CLIENTS, (c, index) -> {
                History.Recorder r = history.recorder(c);
                SplittableRandom rnd = new SplittableRandom(31 + c);
                for (int i = 0; i < opsPerClient; i++) {
                    long k = 1 + rnd.nextInt(4);
                    byte[] key = bytes("shared" + k);
                    int pick = rnd.nextInt(10);
                    if (pick < 4) {
                        long word = ((c + 1L) << 32) | (i + 1);
                        int op = r.invoke(MapSpec.PUT, k, word);
                        boolean replaced = index.put(key, ByteBuffer.allocate(8).putLong(word).array(), WAIT);
                        r.respond(op, replaced ? 0 : 1);
                    } else if (pick < 8) {
                        int op = r.invoke(MapSpec.GET, k);
                        byte[] v = index.get(key, WAIT);
                        if (v == null) {
                            r.respond(op, 0);
                        } else {
                            r.respond(op, 1, ByteBuffer.wrap(v).getLong());
                        }
                    } else {
                        int op = r.invoke(MapSpec.REMOVE, k);
                        r.respond(op, index.delete(key, WAIT) ? 1 : 0);
                    }
                }
            });
            h.stop();
            h.assertReplicasEqual();
            long appended = 0;
            for (int s = 0; s < SHARDS.count(); s++) {
                appended += h.appends(SHARDS.group(s).member(0), s);
            }
            assertEquals((long) CLIENTS * opsPerClient, appended, "each operation appended once");
        }
        assertEquals(CLIENTS * opsPerClient, history.operations().size());
        new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60))).checkByKey(history.operations(), new MapSpec())
                .assertLinearizable();
    }

    /**
     * A put resent twice with the same client id and sequence, and a delete resent once, are answered from the
     * session table with the first answers and change nothing; a sequence behind the last applied is refused typed.
     */
    @DeviceTest
    void shouldApplyAResentRequestOnce() throws InterruptedException {
        byte[] key = bytes("resent");
        int shard = SHARDS.shardOf(key);
        try (Servers h = new Servers(fabric())) {
            h.start();
            h.runClients(1, (c, index) -> {
                assertFalse(index.put(key, bytes("first"), WAIT));
                long seq = index.sequence();
                assertEquals(IndexStatus.ABSENT, index.invoke(IndexFormat.PUT, key, bytes("second"), seq, WAIT),
                        "the resent put gets the first answer");
                assertEquals(IndexStatus.ABSENT, index.invoke(IndexFormat.PUT, key, bytes("third"), seq, WAIT));
                assertArrayEquals(bytes("first"), index.get(key, WAIT), "the resent puts changed nothing");
                assertTrue(index.delete(key, WAIT));
                assertEquals(IndexStatus.FOUND, index.invoke(IndexFormat.DELETE, key, null, seq + 2, WAIT),
                        "a resent delete answers as the first did");
                assertThrows(BadArgumentException.class, () -> index.invoke(IndexFormat.PUT, key, bytes("stale"), seq, WAIT),
                        "a sequence behind the last applied is stale");
                assertNull(index.get(key, WAIT));
            });
            h.stop();
            h.assertReplicasEqual();
            int leader = SHARDS.group(shard).member(0);
            assertEquals(4, h.appends(leader, shard), "put, get, delete, get appended; the resent requests were not");
            assertEquals(4, h.fromTable(leader, shard), "three resent requests and the stale one answered from the table");
            for (int k = 0; k < SERVERS; k++) {
                assertEquals(4, h.applied(SHARDS.group(shard).member(k), shard), "entries node " + k + " applied");
                assertEquals(0, h.applied(k, 1 - shard), "the other shard applied nothing on node " + k);
            }
        }
    }

    /** {@return the map part of a state machine's {@link IndexStateMachine#describe()}: its session entries left out} */
    private static String mapPart(String describe) {
        return describe.replaceAll(", c:[^,}]*", "").replaceAll("\\{c:[^,}]*(, )?", "{");
    }

    /** {@return what {@link #mapPart} of a replica of {@code shard} shows when {@code model} is the whole map} */
    private static String expectedMap(int shard, Map<String, String> model) {
        TreeMap<String, String> out = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        model.forEach((k, v) -> {
            if (SHARDS.shardOf(bytes(k)) == shard) {
                out.put("k:" + hex.formatHex(bytes(k)), hex.formatHex(bytes(v)));
            }
        });
        return out.toString();
    }

    /** Work of one client thread. */
    interface ClientBody {
        void run(int clientIndex, RemusIndex index) throws Exception;
    }

    /**
     * The five nodes, their endpoints (every one connected to every other) and one platform thread per server
     * node, which serves both shards and applies their logs until stopped, then records each server's final
     * state and counts.
     */
    static final class Servers implements AutoCloseable {
        private final TestCluster cluster;
        private final RpcEndpoint[] endpoints;
        private final int nodes = SERVERS + CLIENTS;
        /** Per server node and shard ({@code 2 * node + shard}): what the server applied so far. */
        private final AtomicLongArray appliedNow = new AtomicLongArray(2 * SERVERS);
        private final AtomicLongArray appendsNow = new AtomicLongArray(2 * SERVERS);
        private final String[] state = new String[2 * SERVERS];
        private final long[] applied = new long[2 * SERVERS];
        private final long[] appends = new long[2 * SERVERS];
        private final long[] fromTable = new long[2 * SERVERS];
        private final long[] leaderWrites = new long[2 * SERVERS];
        private final AtomicInteger created = new AtomicInteger();
        private final AtomicInteger leading = new AtomicInteger();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<Thread> threads = new ArrayList<>();

        Servers(Function<SimOptions, Fabric> fabric) {
            cluster = new TestCluster(fabric, SimOptions.defaults(), nodes,
                    b -> b.segmentSize(1 << 20).segmentCount(1).opsInFlightPerThread(64), WAIT);
            endpoints = new RpcEndpoint[nodes];
            for (int i = 0; i < nodes; i++) {
                endpoints[i] = RpcEndpoint.create(cluster.node(i).fabricNode(), nodes, 4);
            }
            for (RpcEndpoint from : endpoints) {
                for (RpcEndpoint to : endpoints) {
                    if (from != to) {
                        from.connect(to.rings(), WAIT);
                    }
                }
            }
        }

        /** Starts every server node's thread and waits until both shards' logs exist everywhere and both leaders lead. */
        void start() throws InterruptedException {
            for (int n = 0; n < SERVERS; n++) {
                int node = n;
                Thread th = new Thread(() -> serve(node), "servers@node" + node);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
            await(() -> leading.get() == SHARDS.count(), "both shards' leaders to lead");
        }

        private void serve(int node) {
            try (ComputeThread t0 = cluster.thread(node, Plane.REPLICATION);
                 ComputeThread t1 = cluster.thread(node, Plane.REPLICATION)) {
                ComputeThread[] ts = {t0, t1};
                IndexShardServer[] servers = new IndexShardServer[SHARDS.count()];
                for (int s = 0; s < servers.length; s++) {
                    servers[s] = IndexShardServer.create(cluster.node(node), ts[s], endpoints[node], SHARDS, s, SLOTS, COMMIT);
                }
                created.incrementAndGet();
                long[] writes = new long[servers.length];
                for (int s = 0; s < servers.length; s++) {
                    if (SHARDS.group(s).member(0) == node) {
                        servers[s].lead(1, WAIT);
                        leading.incrementAndGet();
                    }
                    writes[s] = ts[s].postedOperations(Opcode.WRITE);
                }
                while (!stop.get()) {
                    int served = servers[0].runOnce(Duration.ZERO) + servers[1].runOnce(Duration.ZERO);
                    for (int s = 0; s < servers.length; s++) {
                        appliedNow.set(2 * node + s, servers[s].replica().applied());
                        appendsNow.set(2 * node + s, servers[s].appends());
                    }
                    if (served == 0) {
                        LockSupport.parkNanos(IDLE.toNanos());
                    }
                }
                for (int s = 0; s < servers.length; s++) {
                    servers[s].runOnce(Duration.ZERO);
                    int at = 2 * node + s;
                    leaderWrites[at] = ts[s].postedOperations(Opcode.WRITE) - writes[s];
                    appends[at] = servers[s].appends();
                    fromTable[at] = servers[s].answeredFromTable();
                    applied[at] = servers[s].replica().applied();
                    state[at] = servers[s].machine().describe();
                    servers[s].close();
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        /** Runs {@code body} on one thread per client node, each with a client whose id is its node id + 1000, and waits. */
        void runClients(int clients, ClientBody body) throws InterruptedException {
            List<Thread> mine = new ArrayList<>();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            for (int c = 0; c < clients; c++) {
                int index = c;
                int node = SERVERS + c;
                Thread th = new Thread(() -> {
                    try {
                        body.run(index, new RemusIndex(endpoints[node], SHARDS, 1000 + node, ATTEMPT));
                    } catch (Throwable e) {
                        ended.compareAndSet(null, e);
                    }
                }, "client@node" + node);
                th.setDaemon(true);
                mine.add(th);
                th.start();
            }
            for (Thread th : mine) {
                th.join(WAIT.multipliedBy(3).toMillis());
                if (th.isAlive()) {
                    throw new AssertionError(th.getName() + " did not finish within " + WAIT.multipliedBy(3));
                }
            }
            if (ended.get() != null) {
                throw new AssertionError("a client failed", ended.get());
            }
            if (failure.get() != null) {
                throw new AssertionError("a server failed", failure.get());
            }
        }

        /**
         * Waits until every member of each shard has applied what the shard's leader appended (a leader answers once
         * a majority holds an entry, so the third member may still be taking it), then stops the server threads and
         * joins them; rethrows a server's failure.
         */
        void stop() throws InterruptedException {
            for (int s = 0; s < SHARDS.count(); s++) {
                int shard = s;
                int leader = SHARDS.group(s).member(0);
                for (int n = 0; n < SERVERS; n++) {
                    int node = n;
                    await(() -> appliedNow.get(2 * node + shard) >= appendsNow.get(2 * leader + shard),
                            "node " + node + " to apply every entry of shard " + shard);
                }
            }
            stop.set(true);
            for (Thread th : threads) {
                th.join(WAIT.toMillis());
                if (th.isAlive()) {
                    throw new AssertionError(th.getName() + " did not stop within " + WAIT);
                }
            }
            if (failure.get() != null) {
                throw new AssertionError("a server failed", failure.get());
            }
        }

        /** Every replica of each shard ended in its leader's map and session table, having applied as many entries. */
        void assertReplicasEqual() {
            for (int s = 0; s < SHARDS.count(); s++) {
                ReplicaGroup g = SHARDS.group(s);
                for (int k = 1; k < g.size(); k++) {
                    assertEquals(state(g.member(0), s), state(g.member(k), s), "state of node " + g.member(k) + " and of shard "
                            + s + "'s leader");
                    assertEquals(applied(g.member(0), s), applied(g.member(k), s), "entries of shard " + s + " node "
                            + g.member(k) + " applied");
                }
            }
        }

        String state(int node, int shard) {
            return state[2 * node + shard];
        }

        long applied(int node, int shard) {
            return applied[2 * node + shard];
        }

        long appends(int node, int shard) {
            return appends[2 * node + shard];
        }

        long fromTable(int node, int shard) {
            return fromTable[2 * node + shard];
        }

        long leaderWrites(int node, int shard) {
            return leaderWrites[2 * node + shard];
        }

        private void await(BooleanSupplier done, String what) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!done.getAsBoolean()) {
                if (failure.get() != null) {
                    throw new AssertionError("a server failed while waiting for " + what, failure.get());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("waited " + WAIT + " for " + what);
                }
                Thread.sleep(1);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread th : threads) {
                th.join(WAIT.toMillis());
            }
            for (RpcEndpoint e : endpoints) {
                e.close();
            }
            cluster.close();
        }
    }
}
