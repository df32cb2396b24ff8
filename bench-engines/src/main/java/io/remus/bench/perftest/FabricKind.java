package io.remus.bench.perftest;

/** Which fabric a benchmark runs on ({@code --fabric}). */
public enum FabricKind {
    /** Real RDMA through libibverbs (hardware or Soft-RoCE). */
    VERBS,
    /** The embedded simulator: every node in this JVM, no RDMA needed. */
    SIM,
    /**
     * Shared memory ({@code io.remus.core.shm.ShmFabric}): one process per node on one host, no RDMA
     * needed; only for a run of one process per node, which joins with {@code fabric=shm}.
     */
    SHM
}
