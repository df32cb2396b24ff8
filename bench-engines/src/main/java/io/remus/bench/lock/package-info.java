/**
 * A plain Java entry point for lock benchmarks (the {@code remus bench lock} command wraps it):
 * throughput and a latency histogram of lock/unlock pairs over a lock table on any fabric, with
 * every node in one JVM ({@link io.remus.bench.lock.LockBenchmark}) or one process per node of a
 * {@link io.remus.core.RemusCluster} ({@link io.remus.bench.lock.ClusterLockBenchmark}, node 0
 * collecting every node's result over RDMA).
 */
package io.remus.bench.lock;
