/**
 * Memory nodes and what lives in their segments: {@link io.remus.core.memory.MemoryNode} (the
 * registered segments and their control block), {@link io.remus.core.memory.RemoteAllocator}
 * (size classes, blocks carved from a watermark by RDMA compare-and-swap, freed blocks shared
 * through thread caches and per-node pools, {@link io.remus.core.memory.FreeBlockPool}),
 * {@link io.remus.core.memory.Root}, {@link io.remus.core.memory.ClusterBarrier} and
 * {@link io.remus.core.memory.ClusterShutdown}.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.memory;
