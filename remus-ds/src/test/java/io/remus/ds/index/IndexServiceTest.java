package io.remus.ds.index;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.core.rpc.RpcEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index service on the simulated fabric under the virtual-time scheduler: 2 shards of 3 replicas (nodes 0-2
 * and 3-5, nodes 0 and 3 lead) and clients on nodes 6 and up; each seed fixes an interleaving of servers, clients
 * and simulated NICs.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexServiceTest {
    private static final SimOptions CONNECTX5 = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5);
    private static final Duration DEADLINE = IndexHarness.DEADLINE;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    private static IndexShards twoShards() {
        return IndexShards.of("kv", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(3, 4, 5));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The state a replica of {@code shard} holds when {@code model} is the whole map (sessions left out). */
    private static String mapPart(String describe) {
        return describe.replaceAll(", c:[^,}]*", "").replaceAll("\\{c:[^,}]*(, )?", "{");
    }

    private static String expected(IndexShards shards, int shard, Map<String, String> model) {
        TreeMap<String, String> out = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        model.forEach((k, v) -> {
            if (shards.shardOf(bytes(k)) == shard) {
                out.put("k:" + hex.formatHex(bytes(k)), hex.formatHex(bytes(v)));
            }
        });
        return out.toString();
    }

    /** Every replica of every shard (but {@code silent}, -1 for none) ended in the same state; returns shard 0's. */
    private static void assertReplicasEqual(IndexHarness h, int silent) {
        for (int s = 0; s < h.shards.count(); s++) {
            ReplicaGroup g = h.shards.group(s);
            for (int k = 1; k < g.size(); k++) {
                if (g.member(k) != silent) {
                    assertEquals(h.state[g.member(0)], h.state[g.member(k)], "state of node " + g.member(k)
                            + " and of shard " + s + "'s leader");
                    assertEquals(h.applied[g.member(0)], h.applied[g.member(k)], "entries applied by node " + g.member(k));
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldPutGetAndDeleteAcrossTwoShardsOfThreeReplicas(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 2, 32)) {
                h.startServers();
                int keys = 12;
                Map<String, String> model = new java.util.concurrent.ConcurrentHashMap<>();
                long[] attempts = new long[2];
                long[] ops = new long[2];
                h.runClients(2, (c, index) -> {
                    for (int i = 0; i < keys; i++) {
                        String k = "key-" + c + "-" + i;
                        assertFalse(index.put(bytes(k), bytes("v" + i), DEADLINE), k + " was new");
                        model.put(k, "v" + i);
                    }
                    for (int i = 0; i < keys; i++) {
                        String k = "key-" + c + "-" + i;
                        assertArrayEquals(bytes("v" + i), index.get(bytes(k), DEADLINE), k);
                    }
                    for (int i = 0; i < keys; i += 2) {
                        String k = "key-" + c + "-" + i;
                        assertTrue(index.put(bytes(k), bytes("w" + i + "-" + c), DEADLINE), k + " had a value");
                        model.put(k, "w" + i + "-" + c);
                    }
                    for (int i = 0; i < keys; i += 3) {
                        String k = "key-" + c + "-" + i;
                        assertTrue(index.delete(bytes(k), DEADLINE), k + " had a value to delete");
                        assertFalse(index.delete(bytes(k), DEADLINE), k + " was deleted already");
                        model.remove(k);
                    }
                    for (int i = 0; i < keys; i++) {
                        String k = "key-" + c + "-" + i;
                        String v = model.get(k);
                        byte[] got = index.get(bytes(k), DEADLINE);
                        if (v == null) {
                            assertNull(got, k + " was deleted");
                        } else {
                            assertArrayEquals(bytes(v), got, k);
                        }
                    }
                    attempts[c] = index.attempts();
                    ops[c] = index.sequence();
                });
                h.stopServers(1_000_000);
                assertEquals(ops[0], attempts[0], "every operation of client 0 reached its leader at the first attempt");
                assertEquals(ops[1], attempts[1], "every operation of client 1 reached its leader at the first attempt");
                assertReplicasEqual(h, -1);
                long total = 0;
                for (int s = 0; s < 2; s++) {
                    int leader = shards.group(s).member(0);
                    assertEquals(expected(shards, s, model), mapPart(h.state[leader]), "shard " + s + "'s map");
                    assertTrue(h.appends[leader] > 0, "shard " + s + " served operations");
                    assertEquals(h.appends[leader], h.applied[leader], "every append applied once on shard " + s);
                    assertEquals(4 * h.appends[leader], h.leaderWrites[leader],
                            "4 WRITEs per operation at shard " + s + "'s leader: the append's 2 and the commit flush's 2");
                    assertTrue(h.leaderTrips[leader] >= 2 * h.appends[leader], "2 round trips per operation at least: "
                            + h.leaderTrips[leader] + " for " + h.appends[leader]);
                    total += h.appends[leader];
                }
                assertEquals(ops[0] + ops[1], total, "one append per operation");
            }
        });
    }

    /** One shard of 5 replicas ({@code f = 2}): 8 WRITEs per operation at the leader, one RPC per operation at the client. */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldServeAShardOfFiveReplicas(long seed) {
        IndexShards shards = IndexShards.of("five", ReplicaGroup.of(0, 1, 2, 3, 4));
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 5, 1, 64)) {
                h.startServers();
                long[] sent = new long[2];
                h.runClients(1, (c, index) -> {
                    for (int i = 0; i < 20; i++) {
                        assertEquals(i >= 10, index.put(bytes("k" + i % 10), bytes("v" + i), DEADLINE));
                        assertArrayEquals(bytes("v" + i), index.get(bytes("k" + i % 10), DEADLINE));
                    }
                    sent[0] = h.endpoints[5].writesWithImmediate();
                    sent[1] = index.sequence();
                });
                h.stopServers(1_000_000);
                assertEquals(40, sent[1]);
                assertEquals(40, sent[0], "one request per operation from the client");
                assertReplicasEqual(h, -1);
                assertEquals(40, h.appends[0]);
                assertEquals(8 * 40, h.leaderWrites[0], "the append's 4 WRITEs and the commit flush's 4, per operation");
                assertEquals(2 * 40, h.leaderTrips[0], "2 round trips per operation (the log of 64 slots does not wrap)");
            }
        });
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFollowTheNotLeaderAnswerToTheLeader(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 32)) {
                h.startServers();
                h.runClients(1, (c, index) -> {
                    byte[] key = bytes("a");
                    int shard = shards.shardOf(key);
                    ReplicaGroup g = shards.group(shard);
                    index.expectLeader(shard, g.member(2));
                    assertFalse(index.put(key, bytes("1"), DEADLINE));
                    assertEquals(2, index.attempts(), "a follower answered, then the leader it named");
                    assertEquals(1, index.notLeaderAnswers());
                    assertEquals(g.member(0), index.leaderGuess(shard), "the client keeps the leader");
                    assertArrayEquals(bytes("1"), index.get(key, DEADLINE));
                    assertEquals(3, index.attempts());
                });
                h.stopServers(1_000_000);
                assertReplicasEqual(h, -1);
                long notLeader = 0;
                for (int n = 0; n < 6; n++) {
                    notLeader += h.notLeader[n];
                }
                assertEquals(1, notLeader);
            }
        });
    }

    /** A request resent with the same client id and sequence is answered from the session table, not applied again. */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldApplyARetriedRequestOnce(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 32)) {
                h.startServers();
                byte[] key = bytes("retried");
                h.runClients(1, (c, index) -> {
                    assertFalse(index.put(key, bytes("first"), DEADLINE));
                    long seq = index.sequence();
                    assertEquals(IndexStatus.ABSENT, index.invoke(IndexFormat.PUT, key, bytes("second"), seq, DEADLINE),
                            "the retry gets the first answer");
                    assertEquals(IndexStatus.ABSENT, index.invoke(IndexFormat.PUT, key, bytes("third"), seq, DEADLINE));
                    assertArrayEquals(bytes("first"), index.get(key, DEADLINE), "the retries changed nothing");
                    assertTrue(index.delete(key, DEADLINE));
                    assertEquals(IndexStatus.FOUND, index.invoke(IndexFormat.DELETE, key, null, seq + 2, DEADLINE),
                            "a retried delete answers as the first did");
                    assertThrows(io.remus.core.error.BadArgumentException.class,
                            () -> index.invoke(IndexFormat.PUT, key, bytes("stale"), seq, DEADLINE),
                            "a sequence behind the last applied is stale");
                    assertNull(index.get(key, DEADLINE));
                });
                h.stopServers(1_000_000);
                assertReplicasEqual(h, -1);
                int leader = shards.group(shards.shardOf(key)).member(0);
                assertEquals(4, h.appends[leader], "put, get, delete, get appended; the retries were not");
                assertEquals(4, h.fromTable[leader], "three retries and the stale request answered from the table");
                assertEquals(4, h.applied[leader]);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldKeepServingWhenAFollowerStopsAnswering(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 16)) {
                h.startServers();
                Map<String, String> model = new HashMap<>();
                h.runClients(1, (c, index) -> {
                    for (int i = 0; i < 10; i++) {
                        index.put(bytes("k" + i), bytes("a" + i), DEADLINE);
                        model.put("k" + i, "a" + i);
                    }
                    ((SimFabric) h.cluster.fabric()).stopAnswering(2);
                    for (int i = 0; i < 40; i++) {
                        String k = "k" + (i % 13);
                        if (i % 4 == 3) {
                            String v = model.remove(k);
                            assertEquals(v != null, index.delete(bytes(k), DEADLINE), k);
                        } else {
                            String v = model.put(k, "b" + i);
                            assertEquals(v != null, index.put(bytes(k), bytes("b" + i), DEADLINE), k);
                        }
                    }
                    for (int i = 0; i < 13; i++) {
                        String v = model.get("k" + i);
                        byte[] got = index.get(bytes("k" + i), DEADLINE);
                        assertEquals(v, got == null ? null : new String(got, StandardCharsets.UTF_8), "k" + i);
                    }
                    assertEquals(0, index.notLeaderAnswers());
                });
                h.stopServers(1_000_000);
                assertReplicasEqual(h, 2);
                for (int s = 0; s < 2; s++) {
                    assertEquals(expected(shards, s, model), mapPart(h.state[shards.group(s).member(0)]), "shard " + s);
                }
                assertTrue(h.applied[2] < h.applied[0], "the silent follower applied less: " + h.applied[2] + " of "
                        + h.applied[0]);
            }
        });
    }

    /**
     * The followers of a shard switch their write access away from its leader (Mu's permission switch, as a leader
     * change would): the leader's next append is fenced, it stops leading and answers NOT_LEADER, the fenced entry is
     * never applied, and with no member leading the client's put ends typed at its deadline; the other shard serves.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldStopLeadingWhenFencedAndNeverApplyTheFencedEntry(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 16)) {
                h.startServers();
                byte[] key = bytes("fenced");
                int shard = shards.shardOf(key);
                ReplicaGroup g = shards.group(shard);
                h.runClients(1, (c, index) -> {
                    assertFalse(index.put(key, bytes("kept"), DEADLINE));
                    for (int k = 1; k < g.size(); k++) {
                        h.switchGrant(g.member(k), g.member(1));
                    }
                    RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class,
                            () -> index.put(key, bytes("lost"), Duration.ofMillis(20)));
                    assertTrue(e.getMessage().contains("shard " + shard), e.getMessage());
                    assertTrue(index.notLeaderAnswers() >= 2, "not-leader answers: " + index.notLeaderAnswers());
                    byte[] other = bytes("other");
                    for (int i = 0; shards.shardOf(other) == shard; i++) {
                        other = bytes("other" + i);
                    }
                    assertFalse(index.put(other, bytes("y"), DEADLINE), "the other shard still serves");
                });
                h.stopServers(1_000_000);
                assertFalse(h.leading[g.member(0)], "the fenced leader stopped leading");
                assertEquals(1, h.appends[g.member(0)], "the fenced append is not counted as appended");
                for (int k = 0; k < g.size(); k++) {
                    assertEquals(1, h.applied[g.member(k)], "node " + g.member(k) + " applied only the first put");
                }
                assertTrue(h.notLeader[g.member(0)] >= 1, "the deposed leader answered NOT_LEADER");
            }
        });
    }

    /** Requests that skip the client's checks, sent as raw RPCs: the server answers BAD_REQUEST and appends nothing. */
    @Test
    void shouldAnswerBadRequestToAMalformedRequestWithoutAppending() {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 16)) {
                h.startServers();
                h.runClients(1, (c, index) -> {
                    RpcEndpoint ep = h.endpoints[6];
                    MemorySegment request = MemorySegment.ofArray(new byte[RpcEndpoint.MAX_PAYLOAD]);
                    MemorySegment reply = MemorySegment.ofArray(new byte[RpcEndpoint.MAX_PAYLOAD]);
                    int n = IndexFormat.writeRequest(request, IndexFormat.PUT, 1, 77, 1, bytes("k"), bytes("v"));
                    ep.call(0, shards.methodId(0), request.asSlice(0, n), reply, DEADLINE);
                    assertEquals(IndexStatus.BAD_REQUEST.code(), reply.get(ValueLayout.JAVA_BYTE, 0));
                    byte[] detail = new byte[Short.toUnsignedInt(reply.get(IndexFormat.LE_SHORT, IndexFormat.REPLY_VALUE_LENGTH))];
                    MemorySegment.copy(reply, ValueLayout.JAVA_BYTE, IndexFormat.REPLY_HEADER_BYTES, detail, 0, detail.length);
                    assertEquals("shard 1 asked of the server of shard 0", new String(detail, StandardCharsets.UTF_8));
                    n = IndexFormat.writeRequest(request, IndexFormat.GET, 0, 77, 1, bytes("k"), bytes("v"));
                    ep.call(0, shards.methodId(0), request.asSlice(0, n), reply, DEADLINE);
                    assertEquals(IndexStatus.BAD_REQUEST.code(), reply.get(ValueLayout.JAVA_BYTE, 0), "a GET with a value");
                    n = IndexFormat.writeRequest(request, IndexFormat.GET, 0, 0, 1, bytes("k"), null);
                    ep.call(0, shards.methodId(0), request.asSlice(0, n), reply, DEADLINE);
                    assertEquals(IndexStatus.BAD_REQUEST.code(), reply.get(ValueLayout.JAVA_BYTE, 0), "client id 0");
                    ep.call(0, shards.methodId(0), request.asSlice(0, 10), reply, DEADLINE);
                    assertEquals(IndexStatus.BAD_REQUEST.code(), reply.get(ValueLayout.JAVA_BYTE, 0), "a short request");
                });
                h.stopServers(1_000_000);
                assertEquals(0, h.appends[0], "nothing was appended");
                assertEquals(0, h.applied[1]);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldTimeOutTypedWhenNoMemberOfTheShardAnswers(long seed) {
        IndexShards shards = twoShards();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, 1, 16)) {
                h.startServers();
                AtomicLong failed = new AtomicLong();
                h.runClients(1, (c, index) -> {
                    byte[] key = bytes("lost");
                    int shard = shards.shardOf(key);
                    ReplicaGroup g = shards.group(shard);
                    for (int k = 0; k < g.size(); k++) {
                        ((SimFabric) h.cluster.fabric()).stopAnswering(g.member(k));
                    }
                    RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class,
                            () -> index.put(key, bytes("x"), Duration.ofMillis(20)));
                    assertTrue(e.getMessage().contains("shard " + shard), e.getMessage());
                    failed.set(index.failedAttempts());
                    byte[] other = bytes("other");
                    for (int i = 0; shards.shardOf(other) == shard; i++) {
                        other = bytes("other" + i);
                    }
                    assertFalse(index.put(other, bytes("y"), DEADLINE), "the other shard still serves");
                });
                assertTrue(failed.get() >= 1, "attempts that got no answer: " + failed.get());
                h.stopServers(1_000_000);
            }
        });
    }
}
