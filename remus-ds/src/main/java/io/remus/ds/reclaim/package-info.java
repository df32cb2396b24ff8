/**
 * Remote memory reclamation: when a block that a data structure removed may be freed.
 *
 * <p>A data structure runs each operation inside a {@link io.remus.ds.reclaim.Guard}
 * ({@code try (Guard g = reclaimer.enter()) { ... }}) and hands every block it unlinked to
 * {@link io.remus.ds.reclaim.Reclaimer#retire(long, long)}; the reclaimer frees the block with the
 * thread's {@link io.remus.core.memory.RemoteAllocator} once no thread can still hold a reference
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
 */
package io.remus.ds.reclaim;
