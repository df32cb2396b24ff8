/**
 * The reclamation benchmark of the {@code remus} tool ({@code remus bench reclaim}): runs bench-engines'
 * {@link io.remus.bench.reclaim.ReclaimBenchmark} for several reclaimers side by side and reports
 * the runs as a table or JSON; {@link io.remus.tools.plot.ReclaimPlot} draws their memory over time.
 */
package io.remus.tools.reclaim;
