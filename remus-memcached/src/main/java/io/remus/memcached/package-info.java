/**
 * The memcached text protocol over Remus engines.
 *
 * <p>{@link io.remus.memcached.MemcachedServer} speaks the protocol (memcached's doc/protocol.txt) on one TCP
 * port with one selector thread; every command runs through a {@link io.remus.memcached.MemcachedEngine}, a handle
 * that thread owns. {@link io.remus.memcached.ItemTable} keeps memcached's item semantics (flags, expiration,
 * CAS unique values) for one shard, and {@link io.remus.memcached.DelegatedCache} hands each shard's table to a
 * trustee on one node of the cluster, so every node's server sees the same items.
 */
package io.remus.memcached;
