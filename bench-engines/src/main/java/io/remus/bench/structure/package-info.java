/**
 * The set and map benchmark behind {@code remus bench ds}: Remus' integer-set microbenchmark
 * ({@code --num-ops}, {@code --prefill}, {@code --insert}, {@code --remove}, {@code --key-lb},
 * {@code --key-ub}) and YCSB's core workloads A, B, C, D and F (B. F. Cooper, A. Silberstein, E. Tam,
 * R. Ramakrishnan, R. Sears, "Benchmarking Cloud Serving Systems with YCSB", SoCC 2010) over
 * {@link io.remus.ds.set.LazyListSet}, {@link io.remus.ds.set.LockFreeListSet},
 * {@link io.remus.ds.set.LockFreeSkipListSet} and {@link io.remus.ds.map.RemoteHashMap}, in one JVM ({@link io.remus.bench.structure.DsBenchmark}) or as
 * one process per node ({@link io.remus.bench.structure.ClusterDsBenchmark}). The {@code remus bench ds}
 * command of the tools module runs it and reports the results.
 */
package io.remus.bench.structure;
