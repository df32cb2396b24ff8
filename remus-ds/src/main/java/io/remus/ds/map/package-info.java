/**
 * Hash maps over one-sided RDMA: {@link io.remus.ds.map.RemoteHashMap}, after RACE hashing (Zuo, Sun,
 * Yang, Zhang, Hua, "One-sided RDMA-Conscious Extendible Hashing for Disaggregated Memory", USENIX ATC
 * 2021), from byte-string keys (1 to a configured longest, 8 bytes by default; a {@code long} key is its 8
 * little-endian bytes) to byte-string values, both kept out of place in immutable blocks, each change
 * published by one compare-and-swap of an 8-byte slot and old blocks retired through a
 * {@link io.remus.ds.reclaim.Reclaimer}; and {@link io.remus.ds.map.TypedRemoteHashMap}, the same map with
 * typed keys and values through {@link io.remus.ds.map.Codec}s (built in: {@code Long}, UTF-8
 * {@code String}, {@code byte[]}) at the same RDMA cost.
 *
 * With {@code t} a compute thread of node 0 in a two-node cluster:
 * {@snippet :
 * try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator());
 *      RemoteHashMap map = RemoteHashMap.create(t, reclaimer, 1, 1024, 64)) {  // node 1, 1024 buckets, values to 64 B
 *     map.put(42L, "answer".getBytes(StandardCharsets.UTF_8));  // true: the key was new
 *     byte[] value = map.get(42L);                               // 2 round trips; null when absent
 *     map.remove(42L);
 * }
 * }
 *
 * <p>A map is made like the objects of {@code io.remus.ds.object}: a creator calls
 * {@code RemoteHashMap.create(thread, reclaimer, node, buckets, maxValueBytes)} (or with
 * {@code maxKeyBytes} before {@code maxValueBytes}) and hands
 * {@code map.ptr()} to the others, each of which calls {@code RemoteHashMap.attach(thread, reclaimer, ptr)}
 * with its own compute thread and reclaimer. Handles are confined to their compute thread's owner. The root
 * carries a {@link io.remus.ds.identity.StructureIdentity}: {@code attach} refuses another kind's root with
 * {@link io.remus.ds.identity.WrongStructureException} and a destroyed map with
 * {@link io.remus.ds.map.ClosedMapException}, which is also what every call on a closed or destroyed handle
 * throws, and every call of any handle that starts after any handle's destroy returned (its first doorbell
 * batch READs the root's handles word behind the buckets, at no extra round trip); of two {@code destroy()}
 * calls on one map, in any handles, exactly one marks it destroyed, and the last handle to {@code close()} frees it.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException} whose
 * message is the parameter's name, thrown before anything is done; the typed exceptions
 * ({@link io.remus.core.error.BadArgumentException}, {@link io.remus.ds.map.MapFullException}) are for values
 * that are present but wrong.
 */
package io.remus.ds.map;
