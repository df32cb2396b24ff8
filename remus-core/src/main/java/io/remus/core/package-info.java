/**
 * Remus' programming model, the user's API: {@link io.remus.core.ComputeThread} (one-sided READ,
 * WRITE, compare-and-swap and fetch-and-add, synchronous, asynchronous and in doorbell batches),
 * {@link io.remus.core.RemusNode}, {@link io.remus.core.RemusCluster} (a process's membership in a
 * cluster, from joining to the shutdown handshake, which a program's {@code main} calls once), and
 * what is built on {@code ComputeThread}: {@link io.remus.core.MemoryNode} (a node's registered
 * segments and control block), {@link io.remus.core.RemoteAllocator} (size classes, runs of blocks
 * reserved from a watermark by one RDMA atomic each and carved locally, freed blocks shared through thread caches and per-node
 * pools, {@link io.remus.core.FreeBlockPool}), {@link io.remus.core.RemoteBlob},
 * {@link io.remus.core.Root} and {@link io.remus.core.ClusterBarrier}. Remote pointers are
 * {@link io.remus.core.memory.RemotePtr} words; {@link io.remus.core.RemoteStruct} declares a remote
 * record's layout once and reads, writes, compares-and-swaps and fetches-and-adds its words by name,
 * with the same RDMA operations as offset arithmetic on the pointer. Every failure is a
 * {@link io.remus.core.error.RemusException}.
 *
 * {@snippet :
 * ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
 * try (SimFabric fabric = new SimFabric();
 *      RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
 *      RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
 *      ComputeThread t = node0.newComputeThread()) {
 *     long counter = t.allocator().allocate(8, 1);  // 8 bytes on node 1
 *     t.write(counter, 41);                         // RDMA WRITE
 *     long before = t.fetchAndAdd(counter, 1);      // RDMA FAA, returns 41
 *     long now = t.read(counter);                   // RDMA READ, 42
 * }
 * }
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core;
