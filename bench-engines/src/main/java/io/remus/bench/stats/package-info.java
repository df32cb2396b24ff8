/**
 * The statistics the engines record and the {@code remus} command prints: HdrHistogram latency
 * recording and summaries, bandwidth summaries and peak rates.
 */
package io.remus.bench.stats;
