package io.remus.bench.perftest;

/** Which fabric a benchmark runs on ({@code --fabric}). */
public enum FabricKind {
    /** Real RDMA through libibverbs (hardware or Soft-RoCE). */
    VERBS,
    /** The embedded simulator: every node in this JVM, no RDMA needed. */
    SIM
}
