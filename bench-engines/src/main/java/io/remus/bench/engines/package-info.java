/**
 * What the benchmark engines share and no user program calls: {@link io.remus.bench.engines.ClusterRounds}
 * (the rounds that every process of a joined cluster runs together), the cross-process result steps
 * ({@link io.remus.bench.engines.ClusterResults}), joining a run's workers
 * ({@link io.remus.bench.engines.BenchWorkers}) and closing their handles
 * ({@link io.remus.bench.engines.Handles}). Not exported.
 */
package io.remus.bench.engines;
