/**
 * The reports of {@code remus bench object} (remus-ds's {@link io.remus.ds.object.bench.ObjectBenchmark}):
 * its runs with their latency percentiles, as a table, as JSON, and as bar charts.
 */
package io.remus.tools.object;
