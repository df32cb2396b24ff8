/**
 * The report of {@code remus bench index} (bench-engines' {@link io.remus.bench.index.IndexBenchmark}): the
 * replicated, sharded index's runs in virtual time beside the hash map's, as a table and as JSON; with one process
 * per node, the runs of {@link io.remus.bench.index.ClusterIndexBenchmark}.
 */
package io.remus.tools.index;
