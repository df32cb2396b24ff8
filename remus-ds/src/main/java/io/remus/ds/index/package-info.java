/**
 * A replicated, sharded key-value index on the replicated log of {@code io.remus.ds.replicate} (Mu: Aguilera,
 * Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI
 * 2020): byte-string keys hashed to shards ({@link io.remus.ds.index.IndexShards}), each shard one replica group of
 * {@code 2f + 1} nodes whose members apply the shard's log to an {@link io.remus.ds.index.IndexStateMachine}.
 *
 * <p>On each member an {@link io.remus.ds.index.IndexShardServer} serves an RPC method on the node's
 * {@link io.remus.core.rpc.RpcEndpoint}: the leader appends each request to the log, commits it, applies it and
 * answers; the followers answer {@link io.remus.ds.index.IndexStatus#NOT_LEADER} naming the leader they know, and
 * apply. A client, {@link io.remus.ds.index.RemusIndex}, finds each shard's leader and retries until its caller's
 * deadline; every operation carries the client's id and sequence, so it takes effect exactly once. Reads go through
 * the log and are linearizable. The wire and log format is {@link io.remus.ds.index.IndexFormat}.
 *
 * <p>A shard survives its leader's crash when its servers run with fail-over on
 * ({@link io.remus.ds.index.IndexShardServer#enableFailover}): each member's own thread polls its
 * {@link io.remus.ds.replicate.ReplicaAgent}; the lowest live member is elected, takes the shard over
 * ({@link io.remus.ds.replicate.LogLeader#takeOver}: the log recovered from a majority), applies the recovered log
 * (so its session table knows every request the old leader committed) and serves; the others name it in their
 * {@code NOT_LEADER} answers, and a deposed leader's appends are refused. Clients just retry. Without fail-over,
 * the program appoints the leader ({@code lead}, {@code grantWriteTo}).
 *
 * <p>With {@code node} a member's {@code RemusNode}, {@code t} and {@code t2} two compute threads of it owned by the
 * server's thread, {@code endpoint} its RPC endpoint (connected to the other nodes), and {@code clientEndpoint} a
 * client node's:
 * {@snippet :
 * IndexShards shards = IndexShards.of("kv", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(3, 4, 5));
 * // on every member of shard 0, on its own thread:
 * IndexShardServer server = IndexShardServer.create(node, t, endpoint, shards, 0, 1024, Duration.ofMillis(10));
 * server.enableFailover(t2, 64, Duration.ofMillis(20));     // the leader's LogLeader will run on t2
 * // while (running) server.runOnce(Duration.ofMillis(1)); // polls, elects, takes over when elected, serves
 *
 * // on a client's thread:
 * RemusIndex index = new RemusIndex(clientEndpoint, shards, 42, Duration.ofMillis(50));
 * byte[] key = "user:7".getBytes(StandardCharsets.UTF_8);
 * index.put(key, "Ada".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(1)); // 1 RPC; the leader: 2 round trips
 * byte[] value = index.get(key, Duration.ofSeconds(1));                         // through the log: linearizable
 * index.delete(key, Duration.ofSeconds(1));
 * }
 */
package io.remus.ds.index;
