package io.remus.ds.index;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the index, refused typed, naming the value, before any RDMA operation. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IndexBadInputTest {
    private static final Duration T = Duration.ofSeconds(1);
    private static final IndexShards SHARDS = IndexShards.of("kv", ReplicaGroup.of(0, 1, 2));

    private static void refused(String expected, Executable call) {
        BadArgumentException e = assertThrows(BadArgumentException.class, call);
        assertTrue(e.getMessage().contains(expected), "\"" + e.getMessage() + "\" names \"" + expected + "\"");
    }

    @Test
    void shouldRefuseBadKeysValuesAndTimeoutsBeforeSendingAnything() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 4, b -> { });
             RpcEndpoint ep = RpcEndpoint.create(c.node(3).fabricNode(), 4, 2)) {
            RemusIndex index = new RemusIndex(ep, SHARDS, 7, T);
            byte[] ok = {1};
            refused("key must not be null", () -> index.put(null, ok, T));
            refused("key of 0 bytes; the index takes 1..64", () -> index.get(new byte[0], T));
            refused("key of 65 bytes; the index takes 1..64", () -> index.delete(new byte[65], T));
            refused("value must not be null", () -> index.put(ok, null, T));
            refused("value of 0 bytes; the index takes 1..168", () -> index.put(ok, new byte[0], T));
            refused("value of 169 bytes; the index takes 1..168", () -> index.put(ok, new byte[169], T));
            refused("timeout must be positive, got PT0S", () -> index.get(ok, Duration.ZERO));
            refused("timeout must be positive, got PT-1S", () -> index.put(ok, ok, Duration.ofSeconds(-1)));
            refused("leader of shard 0 node 5 is not in the replica group [0, 1, 2]", () -> index.expectLeader(0, 5));
            refused("shard must be 0..0, got 1", () -> index.expectLeader(1, 0));
            refused("client id 0 is reserved", () -> new RemusIndex(ep, SHARDS, 0, T));
            refused("attemptTimeout must be positive", () -> new RemusIndex(ep, SHARDS, 1, Duration.ZERO));
            assertEquals(0, index.sequence(), "no operation was numbered");
            assertEquals(0, index.attempts());
            assertEquals(0, ep.writesWithImmediate(), "nothing was sent");
            refused("node 0 is not connected", () -> index.put(ok, ok, T));
            assertEquals(0, ep.writesWithImmediate(), "a client whose endpoint does not reach the shard's members sends nothing");
            assertEquals(IndexFormat.MAX_ENTRY_BYTES, IndexFormat.HEADER_BYTES + IndexFormat.MAX_KEY_BYTES
                    + IndexFormat.MAX_VALUE_BYTES, "the largest request fills one RPC payload");
        }
    }

    @Test
    void shouldRefuseBadShardMaps() {
        ReplicaGroup g = ReplicaGroup.of(0, 1, 2);
        refused("an index has 1..65536 shards, got 0", () -> IndexShards.of("kv"));
        refused("the replica group of shard 1 is null", () -> IndexShards.of("kv", g, null));
        refused("must be 1..31 printable ASCII", () -> IndexShards.of("", g));
        refused("must be 1..31 printable ASCII", () -> IndexShards.of("has space", g));
        refused("must be 1..31 printable ASCII", () -> IndexShards.of("a-name-of-thirty-characters-xx", g));
        refused("shard must be 0..0, got -1", () -> SHARDS.group(-1));
        assertEquals("kv-0", SHARDS.logName(0));
        assertEquals(IndexShards.METHOD_BASE, SHARDS.methodId(0));
    }

    /** A server on a node outside the shard's group, or with another node's endpoint, is refused before its log exists. */
    @Test
    void shouldRefuseAServerOnANodeOutsideTheShardsGroup() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 4, b -> { });
             RpcEndpoint ep3 = RpcEndpoint.create(c.node(3).fabricNode(), 4, 2);
             RpcEndpoint ep0 = RpcEndpoint.create(c.node(0).fabricNode(), 4, 2);
             ComputeThread t3 = c.thread(3);
             ComputeThread t0 = c.thread(0)) {
            refused("index server node 3 is not in the replica group [0, 1, 2]",
                    () -> IndexShardServer.create(c.node(3), t3, ep3, SHARDS, 0, 16, T));
            refused("server of node 0 given the compute thread of node 0 and the RPC endpoint of node 3",
                    () -> IndexShardServer.create(c.node(0), t0, ep3, SHARDS, 0, 16, T));
            refused("shard must be 0..0, got 2", () -> IndexShardServer.create(c.node(0), t0, ep0, SHARDS, 2, 16, T));
            refused("commitTimeout must be positive", () -> IndexShardServer.create(c.node(0), t0, ep0, SHARDS, 0, 16,
                    Duration.ZERO));
            IndexShardServer server = IndexShardServer.create(c.node(0), t0, ep0, SHARDS, 0, 16, T);
            refused("leader node 3 is not in the replica group [0, 1, 2]", () -> server.grantWriteTo(3));
            assertEquals(-1, server.knownLeader());
            refused("is bound on node 0 already", () -> IndexShardServer.create(c.node(0), t0, ep0, SHARDS, 0, 16, T));
            server.close();
            refused("is closed", () -> server.runOnce(Duration.ZERO));
        }
    }
}
