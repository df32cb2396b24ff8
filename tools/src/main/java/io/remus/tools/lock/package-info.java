/**
 * The reports of the lock benchmark of the {@code remus} tool ({@code remus bench lock}), whose runs
 * bench-engines' {@link io.remus.bench.lock.LockRunner} measures with HdrHistogram latency recording
 * (or, one process per node, {@link io.remus.bench.lock.ClusterLockRunner}, node 0 merging every
 * node's histogram): the runs as a table, JSON or CSV rows, and the ALock paper's grid as a plot
 * ({@code remus plot lock-grid}).
 */
package io.remus.tools.lock;
