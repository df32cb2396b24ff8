/**
 * The report of {@code remus bench log} (bench-engines' {@link io.remus.bench.replicate.LogBenchmark}): the
 * replicated log's runs in virtual time, as a table and as JSON.
 */
package io.remus.tools.log;
