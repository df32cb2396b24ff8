/**
 * The wait-free objects benchmark ({@link io.remus.bench.object.ObjectBenchmark}): nodes x threads
 * calling one shared object of {@code io.remus.ds.object}, wait-free or as a
 * {@link io.remus.ds.object.LockedObject} under ALock or a spin lock, optionally with one thread
 * stalled in the middle of an operation for half of the run. The {@code remus bench object} command of
 * the tools module runs it and reports the results. Beside it, the experiments of {@code remus experiment}:
 * {@link io.remus.bench.object.SharingExperiment} (one shared counter, every way Remus has) and
 * {@link io.remus.bench.object.KvExperiment} (a key-value store under YCSB A and B: the one-sided
 * hash map, delegation, an ALock-protected table).
 */
package io.remus.bench.object;
