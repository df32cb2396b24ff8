/**
 * The reclamation benchmark of the {@code remus} tool ({@code remus bench reclaim}): runs remus-ds's
 * {@link io.remus.ds.reclaim.bench.ReclaimBenchmark} for several reclaimers side by side and reports
 * the runs as a table or JSON; {@link io.remus.tools.plot.ReclaimPlot} draws their memory over time.
 */
package io.remus.tools.reclaim;
