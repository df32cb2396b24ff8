package io.remus.bench.stats;

import org.HdrHistogram.Histogram;

/**
 * The latency of one message size.
 *
 * @param bytes     the message size
 * @param summary   the statistics
 * @param histogram every sample, in nanoseconds
 */
public record LatencyResult(int bytes, LatencySummary summary, Histogram histogram) {
    /**
     * @param bytes     the message size
     * @param histogram every sample, in nanoseconds
     * @return the result with its summary computed
     */
    public static LatencyResult of(int bytes, Histogram histogram) {
        return new LatencyResult(bytes, LatencySummary.of(histogram), histogram);
    }
}
