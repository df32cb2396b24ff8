/**
 * The reclamation benchmark ({@link io.remus.bench.reclaim.ReclaimBenchmark}): nodes x threads of
 * {@link io.remus.bench.churn.ChurnWorkload} with the never-free, barrier or epoch reclaimer,
 * optionally with a thread stalled inside a guard, sampling the cluster's unreclaimed bytes over
 * time, with every node in one JVM, or one process per node of a {@link io.remus.core.RemusCluster}
 * ({@link io.remus.bench.reclaim.ClusterReclaimBenchmark}, node 0 collecting every node's result
 * over RDMA). The {@code remus bench reclaim} command of the tools module runs it and reports the results.
 */
package io.remus.bench.reclaim;
