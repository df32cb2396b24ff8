/**
 * The replicated-log benchmark ({@link io.remus.bench.replicate.LogBenchmark}): one leader appending
 * entries of a fixed size to the Mu-style log of {@code io.remus.ds.replicate} (Aguilera, Ben-David,
 * Guerraoui, Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020)
 * on a group of {@code 2f + 1} simulated nodes, in the simulator's virtual time: the replication latency of
 * each append, the RDMA operations, round trips and bytes per append from the leader's compute thread, and
 * the commit throughput of one leader appending one entry at a time. And the fail-over engine
 * ({@link io.remus.bench.replicate.LogFailOverBenchmark}): the elected leader crashes, and the run reports in
 * virtual time the survivors' detection, the new leader's election and takeover, and its first commit, with the
 * takeover's RDMA operations and round trips. The {@code remus bench log} command of the tools module runs both
 * ({@code --fail-over} the second) and reports the results.
 */
package io.remus.bench.replicate;
