/**
 * The statistics the engines record and the {@code remus} command prints: HdrHistogram latency
 * recording and summaries, bandwidth summaries and peak rates, and latency percentile spectra with the
 * files they are read from ({@code remus bench --hgrm}'s distributions, one latency per line).
 */
package io.remus.bench.stats;
