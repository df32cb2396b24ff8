package io.remus.bench.stats;

import org.HdrHistogram.Histogram;

/**
 * The statistics of one latency run, computed from every recorded sample with nothing trimmed.
 * Values are in nanoseconds as recorded; {@link #usec(double)} converts for printing.
 *
 * @param count     samples recorded
 * @param min       the smallest sample
 * @param max       the largest sample
 * @param median    the 50th percentile (perftest's {@code t_typical})
 * @param mean      the arithmetic mean
 * @param stdDev    the population standard deviation
 * @param p90       the 90th percentile
 * @param p99       the 99th percentile
 * @param p999      the 99.9th percentile
 * @param p9999     the 99.99th percentile
 */
public record LatencySummary(long count, long min, long max, long median, double mean, double stdDev,
                             long p90, long p99, long p999, long p9999) {

    /**
     * Summarizes a histogram of nanosecond samples. Percentiles are HdrHistogram's (the highest
     * value equivalent to the sample at that rank, within the histogram's precision).
     *
     * @param histogram samples in nanoseconds
     * @return the summary; all zero when the histogram is empty
     */
    public static LatencySummary of(Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(histogram.getTotalCount(), histogram.getMinValue(), histogram.getMaxValue(),
                histogram.getValueAtPercentile(50), histogram.getMean(), histogram.getStdDeviation(),
                histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getValueAtPercentile(99.99));
    }

    /**
     * @param nanos a value in nanoseconds
     * @return the value in microseconds
     */
    public static double usec(double nanos) {
        return nanos / 1000.0;
    }
}
