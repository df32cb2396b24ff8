/**
 * The lock benchmark of the {@code remus} tool ({@code remus bench lock}): runs bench-engines'
 * {@link io.remus.bench.lock.LockBenchmark} with HdrHistogram latency recording (or, one process per
 * node, {@link io.remus.bench.lock.ClusterLockBenchmark} through {@link io.remus.tools.lock.ClusterLockRunner},
 * node 0 merging every node's histogram), reports runs as a
 * table, JSON or CSV rows, and plots the ALock paper's grid ({@code remus plot lock-grid}).
 */
package io.remus.tools.lock;
