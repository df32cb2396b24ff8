/**
 * Remote memory reclamation: when a block that a data structure removed may be freed.
 *
 * With {@code t} a compute thread of node 0 in a two-node cluster:
 * {@snippet :
 * try (Reclaimer reclaimer = new EpochReclaimer(t, t.allocator())) {
 *     long block = t.allocator().allocate(64, 1);
 *     try (Guard guard = reclaimer.enter()) {
 *         // read the structure, unlink the block
 *         reclaimer.retire(block, 64);    // freed once no guard that could have read it is open
 *     }
 *     reclaimer.reclaim();
 * }
 * }
 *
 * <p>A data structure runs each operation inside a {@link io.remus.ds.reclaim.Guard}
 * ({@code try (Guard g = reclaimer.enter()) { ... }}) and hands every block it unlinked to
 * {@link io.remus.ds.reclaim.Reclaimer#retire(long, long)}; the reclaimer frees the block with the
 * thread's {@link io.remus.core.RemoteAllocator} once no thread can still hold a reference
 * to it. Three reclaimers share that interface, so that they can be compared in one run:
 * <ul>
 *   <li>{@link io.remus.ds.reclaim.EpochReclaimer}: epoch-based reclamation (Fraser, "Practical
 *       lock-freedom", 2004) over RDMA, with announcements in each node's own memory and leases,
 *       so that a stalled or dead thread stops holding reclamation back once its lease runs out;
 *   <li>{@link io.remus.ds.reclaim.BarrierReclaimer}: Remus' scheme, free after a cluster-wide
 *       barrier;
 *   <li>{@link io.remus.ds.reclaim.NeverReclaimer}: never free (a baseline for benchmarks).
 * </ul>
 * One reclaimer per {@link io.remus.core.ComputeThread}, confined to its thread like it.
 *
 * <h2>Progress</h2>
 * A wait-free or lock-free data structure keeps its guarantee with {@link io.remus.ds.reclaim.EpochReclaimer}
 * and {@link io.remus.ds.reclaim.NeverReclaimer} as they come: with {@link io.remus.ds.reclaim.EpochOptions#defaults()}
 * no reclaimer call waits for another thread, and the lease, not the caller, bounds what a stalled thread
 * holds back. A limit on unreclaimed bytes ({@link io.remus.ds.reclaim.EpochOptions#limitBytes()}) makes
 * closing a guard wait for the others: every structure used with such a reclaimer is blocking.
 * {@link io.remus.ds.reclaim.BarrierReclaimer}'s guards never wait; its {@link io.remus.ds.reclaim.Reclaimer#reclaim()},
 * which the structures never call themselves, waits at a barrier.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name, thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong. (A null remote pointer, {@code 0L}, is a value, not a Java null.)
 */
package io.remus.ds.reclaim;
