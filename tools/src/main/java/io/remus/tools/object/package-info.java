/**
 * The reports of {@code remus bench object} (bench-engines' {@link io.remus.bench.object.ObjectBenchmark}):
 * its runs with their latency percentiles, as a table, as JSON, and as bar charts.
 */
package io.remus.tools.object;
