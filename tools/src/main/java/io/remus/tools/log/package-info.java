/**
 * The report of {@code remus bench log} (bench-engines' {@link io.remus.bench.replicate.LogBenchmark}): the
 * replicated log's runs in virtual time, as a table and as JSON ({@link io.remus.tools.log.LogFormat}); and of
 * {@code remus bench log --fail-over} ({@link io.remus.bench.replicate.LogFailOverBenchmark}): its leader changes,
 * the same two ways ({@link io.remus.tools.log.LogFailOverFormat}).
 */
package io.remus.tools.log;
