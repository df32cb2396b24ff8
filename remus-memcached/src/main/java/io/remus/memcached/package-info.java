/**
 * The memcached text protocol over Remus engines: every node of a cluster serves the same items on its own port.
 * Given the cluster's {@code nodes} (a list of {@link io.remus.core.RemusNode}, each with memory):
 * {@snippet :
 * try (DelegatedCache cache = DelegatedCache.start(nodes, 8, 4, () -> System.currentTimeMillis() / 1000);
 *      MemcachedServer server = MemcachedServer.start(ServerConfig.of("127.0.0.1", 11211),
 *              () -> cache.openEngine(0), () -> System.currentTimeMillis() / 1000)) {
 *     // memcached clients talk to 127.0.0.1:11211; a server per node, each with openEngine(node), shares the items
 * }
 * }
 *
 * <p>{@link io.remus.memcached.MemcachedServer} speaks the protocol (memcached's doc/protocol.txt) on one TCP
 * port with one selector thread; every command runs through a {@link io.remus.memcached.MemcachedEngine}, a handle
 * that thread owns. {@link io.remus.memcached.ItemTable} keeps memcached's item semantics (flags, expiration,
 * CAS unique values) for one shard, and {@link io.remus.memcached.DelegatedCache} hands each shard's table to a
 * trustee on one node of the cluster (delegation, after Trust&lt;T&gt;/Gossamer), so every node's server sees the
 * same items. With one process per node, each process calls
 * {@link io.remus.memcached.DelegatedCache#join DelegatedCache.join(cluster, ...)} on its
 * {@link io.remus.core.RemusCluster} instead of {@code start}, and serves {@code openEngine(cluster.nodeId())} on its
 * own port ({@code remus serve memcached} does so under a launcher).
 *
 * <p>A delegated shard lives on one node and is lost with it. {@link io.remus.memcached.ReplicatedCacheEngine}
 * keeps each shard in a replica group instead: every member runs a {@link io.remus.memcached.ReplicatedCacheShard}
 * whose copy of the shard's replicated log (Mu, OSDI 2020) is applied to a
 * {@link io.remus.memcached.ReplicatedItemMachine}, so an acknowledged command survives the crash of a minority of
 * the shard's members and is applied once however often a client resends it. With one process per node, each
 * process calls {@link io.remus.memcached.ReplicatedCache#join ReplicatedCache.join(cluster, ...)} (3 or more
 * nodes): it hosts its members of the shards' groups, each behind a trustee front door through which a handle on
 * any node reaches it, and serves {@code openEngine(cluster.nodeId())} as above.
 */
package io.remus.memcached;
