/**
 * The index benchmark ({@link io.remus.bench.index.IndexBenchmark}): the replicated, sharded index of
 * {@code io.remus.ds.index} (each shard a Mu-style replicated log: Aguilera, Ben-David, Guerraoui, Marathe, Xygkis,
 * Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020) under YCSB A, B or C (Cooper et al.,
 * SoCC 2010) with zipfian keys, in the simulator's virtual time, beside the unreplicated hash map of
 * {@code io.remus.ds.map} on the same workload, cost model and seed. The {@code remus bench index} command of the
 * tools module runs it and reports the results. With one process per node, {@link
 * io.remus.bench.index.ClusterIndexBenchmark} runs the same workload over a joined cluster, each node a replica of some
 * shards and a client.
 */
package io.remus.bench.index;
