package io.remus.bench.stats;

import io.remus.core.error.BadArgumentException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A latency distribution as HdrHistogram's percentile spectrum: the latency at each of a rising
 * series of percentiles, the rows that {@code outputPercentileDistribution} prints.
 *
 * @param label       the name of the series on a chart
 * @param percentiles the percentiles as fractions, from 0 to at most 1, never falling
 * @param latencyUsec the latency at each percentile, in microseconds
 */
public record PercentileDistribution(String label, double[] percentiles, double[] latencyUsec) {
    /**
     * The percentile steps per halving of the distance to 100 %, as HdrHistogram's
     * {@code outputPercentileDistribution} uses by default.
     */
    public static final int TICKS_PER_HALF_DISTANCE = 5;
    private static final double NANOS_PER_USEC = 1000.0;

    /**
     * Checks the shape.
     *
     * @throws BadArgumentException when there is no point, the arrays differ in length, or a
     *                              percentile is outside [0, 1] or below the one before it
     */
    public PercentileDistribution {
        if (percentiles.length == 0 || percentiles.length != latencyUsec.length) {
            throw new BadArgumentException(label + ": a distribution needs one latency per percentile, and at least one");
        }
        for (int i = 0; i < percentiles.length; i++) {
            double p = percentiles[i];
            if (!(p >= 0 && p <= 1) || (i > 0 && p < percentiles[i - 1])) {
                throw new BadArgumentException(label + ": percentile " + p + " is outside [0, 1] or below the one before");
            }
        }
        percentiles = percentiles.clone();
        latencyUsec = latencyUsec.clone();
    }

    /**
     * Takes a histogram's percentile spectrum.
     *
     * @param label       the series' name
     * @param histogram   the samples
     * @param unitsPerUsec the histogram's values per microsecond (1000 for nanoseconds)
     * @return the points {@code histogram.outputPercentileDistribution(out, unitsPerUsec)} prints
     * @throws BadArgumentException when the histogram is empty
     */
    public static PercentileDistribution of(String label, Histogram histogram, double unitsPerUsec) {
        if (histogram.getTotalCount() == 0) {
            throw new BadArgumentException(label + ": no latencies recorded");
        }
        List<double[]> points = new ArrayList<>();
        for (HistogramIterationValue v : histogram.percentiles(TICKS_PER_HALF_DISTANCE)) {
            points.add(new double[] {v.getPercentileLevelIteratedTo() / 100.0, v.getValueIteratedTo() / unitsPerUsec});
        }
        return new PercentileDistribution(label, points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray());
    }

    /**
     * Records samples into a histogram of the tools' range and precision (nanoseconds, three
     * significant digits) and takes its spectrum.
     *
     * @param label       the series' name
     * @param samplesUsec one latency per sample, in microseconds
     * @return the distribution
     * @throws BadArgumentException when there is no sample
     */
    public static PercentileDistribution ofSamples(String label, double[] samplesUsec) {
        Histogram histogram = LatencyHistograms.create();
        for (double us : samplesUsec) {
            LatencyHistograms.record(histogram, Math.round(us * NANOS_PER_USEC));
        }
        return of(label, histogram, NANOS_PER_USEC);
    }

    /**
     * How many points the distribution has.
     *
     * @return the number of points
     */
    public int size() {
        return percentiles.length;
    }

    /**
     * The percentiles of the points.
     *
     * @return the percentiles as fractions, a copy
     */
    @Override
    public double[] percentiles() {
        return percentiles.clone();
    }

    /**
     * The latencies of the points.
     *
     * @return the latencies in microseconds, a copy
     */
    @Override
    public double[] latencyUsec() {
        return latencyUsec.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PercentileDistribution d && label.equals(d.label)
                && Arrays.equals(percentiles, d.percentiles) && Arrays.equals(latencyUsec, d.latencyUsec);
    }

    @Override
    public int hashCode() {
        return label.hashCode() * 31 + Arrays.hashCode(percentiles) * 17 + Arrays.hashCode(latencyUsec);
    }

    @Override
    public String toString() {
        return "PercentileDistribution[" + label + ", " + size() + " points]";
    }
}
