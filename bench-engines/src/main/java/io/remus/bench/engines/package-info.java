/**
 * What the benchmark engines share and no user program calls: {@link io.remus.bench.engines.ClusterRounds}
 * (the rounds that every process of a joined cluster runs together), the cross-process result steps
 * ({@link io.remus.bench.engines.ClusterResults}), starting and closing a run's nodes in this process
 * ({@link io.remus.bench.engines.InProcessNodes}), joining a run's workers
 * ({@link io.remus.bench.engines.BenchWorkers}), closing their handles
 * ({@link io.remus.bench.engines.Handles}), and the clock a run is timed on, the host's or the simulator's virtual
 * time ({@link io.remus.bench.engines.SimTime}). Exported to the {@code remus} command only, for {@code SimTime}.
 */
package io.remus.bench.engines;
