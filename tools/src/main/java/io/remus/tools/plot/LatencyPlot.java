package io.remus.tools.plot;

import io.remus.bench.stats.LatencyResult;
import io.remus.bench.stats.PercentileDistribution;
import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Latency percentile spectra on one chart, as HdrHistogram's plotter draws them: the horizontal
 * axis is {@code 1/(1-percentile)} on a logarithmic scale, so that 0 %, 90 %, 99 %, 99.9 % ... lie
 * one step apart and the tail gets as much room as the body; the vertical axis is the latency in
 * microseconds, linear from 0 as in HdrHistogram's plotter unless the latencies drawn span more
 * than {@value #LINEAR_SPAN_MAX} times from smallest to largest: then it is logarithmic, so that a
 * tail of rare long waits does not flatten the rest of the curve. One series per distribution;
 * the 100 % point (at infinity) is left out, and the maximum is the last point drawn.
 */
public final class LatencyPlot {
    /** The chart's height, in pixels. */
    public static final int HEIGHT = 520;
    /** The largest ratio of largest to smallest latency drawn on a linear axis. */
    public static final int LINEAR_SPAN_MAX = 100;
    /** Up to this many series the legend sits inside the plot's top left corner, where the curves are low. */
    public static final int LEGEND_INSIDE_MAX = 5;
    private static final double TICK_TOLERANCE = 1e-6;
    private static final int LEGEND_ROW_HEIGHT = 24;
    private static final int LEGEND_MARGIN = 40;

    private LatencyPlot() {
    }

    /**
     * Where HdrHistogram's plotter puts a percentile.
     *
     * @param percentile a fraction in [0, 1)
     * @return {@code 1/(1-percentile)}, the value HdrHistogram's plotter puts on its logarithmic axis
     */
    public static double x(double percentile) {
        return 1 / (1 - percentile);
    }

    /**
     * Where a percentile lies on this chart's axis.
     *
     * @param percentile a fraction in [0, 1)
     * @return where it lies on the chart's axis: {@code log10(1/(1-percentile))}, the "nines" (0 for
     *         0 %, 1 for 90 %, 2 for 99 %)
     */
    public static double position(double percentile) {
        return Math.log10(x(percentile));
    }

    /**
     * The axis's tick labels: a whole number of nines {@code k} is the percentile {@code 1 - 10^-k}.
     *
     * @param position a place on the axis
     * @return "0%", "90%", "99%", "99.9%" ... at whole numbers, empty elsewhere
     */
    public static String tickLabel(double position) {
        long k = Math.round(position);
        if (k < 0 || Math.abs(position - k) > TICK_TOLERANCE) {
            return "";
        }
        BigDecimal percent = BigDecimal.ONE.subtract(BigDecimal.ONE.movePointLeft((int) k)).movePointRight(2);
        return percent.stripTrailingZeros().toPlainString() + "%";
    }

    /**
     * One distribution per latency result of a benchmark run.
     *
     * @param results a benchmark's latency results, each size's {@code repeat} runs in a row
     * @param repeat  runs per size
     * @return one distribution per result, labelled by message size (and run, when repeated)
     */
    public static List<PercentileDistribution> ofResults(List<LatencyResult> results, int repeat) {
        List<PercentileDistribution> series = new ArrayList<>();
        for (int k = 0; k < results.size(); k++) {
            LatencyResult r = results.get(k);
            String label = r.bytes() + " bytes" + (repeat > 1 ? ", run " + (k % repeat + 1) : "");
            series.add(PercentileDistribution.of(label, r.histogram(), 1000.0));
        }
        return series;
    }

    /**
     * Makes the chart.
     *
     * @param title  the chart's title
     * @param yTitle the vertical axis's title, with its unit
     * @param series the distributions, one series each, distinct labels
     * @return the chart, {@link PngCharts#WIDTH} by {@link #height(int)}
     * @throws BadArgumentException when there is no distribution or two share a label
     */
    public static XYChart chart(String title, String yTitle, List<PercentileDistribution> series) {
        if (series.isEmpty()) {
            throw new BadArgumentException("no latency distribution to plot");
        }
        Set<String> labels = new HashSet<>();
        for (PercentileDistribution d : series) {
            if (!labels.add(d.label())) {
                throw new BadArgumentException("the label '" + d.label() + "' is given twice");
            }
        }
        PngCharts.headless();
        XYChart chart = new XYChartBuilder().width(PngCharts.WIDTH).height(height(series.size())).title(title)
                .xAxisTitle("percentile").yAxisTitle(yTitle).build();
        PngCharts.style(chart.getStyler());
        double right = 1;
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (PercentileDistribution d : series) {
            double[][] xy = points(d);
            for (double p : xy[0]) {
                right = Math.max(right, Math.ceil(p - TICK_TOLERANCE));
            }
            for (double us : xy[1]) {
                lowest = Math.min(lowest, us);
                highest = Math.max(highest, us);
            }
            XYSeries s = chart.addSeries(d.label(), xy[0], xy[1]);
            s.setMarker(SeriesMarkers.NONE);
        }
        var styler = chart.getStyler();
        styler.setLegendPosition(series.size() > LEGEND_INSIDE_MAX ? Styler.LegendPosition.OutsideE
                : Styler.LegendPosition.InsideNW);
        styler.setXAxisMin(0.0);
        styler.setXAxisMax(right);
        if (lowest > 0 && highest / lowest > LINEAR_SPAN_MAX) {
            PngCharts.logAxis(styler, lowest, highest);
        } else {
            styler.setYAxisMin(0.0);
        }
        styler.setxAxisTickLabelsFormattingFunction(LatencyPlot::tickLabel);
        styler.setXAxisTickMarkSpacingHint((int) Math.ceil(0.9 * PngCharts.WIDTH / right));
        return chart;
    }

    /**
     * The chart's height: {@link #HEIGHT}, or taller when the legend needs more room (with
     * {@code -a}, one series per message size).
     *
     * @param series how many series the chart has
     * @return the height in pixels
     */
    public static int height(int series) {
        return Math.max(HEIGHT, LEGEND_ROW_HEIGHT * series + LEGEND_MARGIN);
    }

    /**
     * The data a distribution gives its series.
     *
     * @param d a distribution
     * @return {@code [positions, latencies]}: {@link #position} of each percentile below 100 % and
     *         its latency in microseconds; a distribution with nothing below 100 % is its one
     *         latency at 0 %
     */
    public static double[][] points(PercentileDistribution d) {
        double[] p = d.percentiles();
        double[] us = d.latencyUsec();
        int n = 0;
        while (n < p.length && p[n] < 1) {
            n++;
        }
        double[][] xy = new double[2][n];
        for (int i = 0; i < n; i++) {
            xy[0][i] = position(p[i]);
            xy[1][i] = us[i];
        }
        if (n == 0) {
            return new double[][] {{0}, {us[0]}};
        }
        return xy;
    }

    /**
     * Draws the chart and writes it as a PNG.
     *
     * @param title  the chart's title
     * @param yTitle the vertical axis's title, with its unit
     * @param series the distributions
     * @param png    the file to write
     * @throws IOException when it cannot be written
     * @throws BadArgumentException when there is no distribution or two share a label
     */
    public static void write(String title, String yTitle, List<PercentileDistribution> series, Path png)
            throws IOException {
        PngCharts.write(chart(title, yTitle, series), png);
    }
}
