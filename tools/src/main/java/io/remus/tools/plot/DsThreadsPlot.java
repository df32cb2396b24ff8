package io.remus.tools.plot;

import io.remus.bench.structure.DsRun;
import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The runs of a {@code remus bench ds} sweep as lines: throughput (operations per second, all workers) over
 * the threads per node, one series per structure (its label: the structure, with the lazy list's lock and
 * the YCSB workload), in the order the structures first ran. The thread counts are categories, evenly
 * spaced in ascending order (1, 2, 4, 8 lie as on a log-2 axis). The throughput axis starts at 0, or is
 * logarithmic when the throughputs span more than {@value #LINEAR_SPAN_MAX} times, so that a list and the
 * hash map fit one chart.
 */
public final class DsThreadsPlot {
    /** The chart's height, in pixels. */
    public static final int HEIGHT = 480;
    /**
     * The largest span of throughputs, largest over smallest, drawn on a linear axis: beyond it the slower
     * structures' lines would lie flat along the bottom, and a scaling shape is a ratio, which a
     * logarithmic axis draws the same at every height.
     */
    public static final int LINEAR_SPAN_MAX = 10;
    /** Linear-axis labels as plain numbers with thousands separators (XChart's default is 2E5). */
    private static final String LINEAR_AXIS_PATTERN = "#,##0";

    private DsThreadsPlot() {
    }

    /**
     * Makes the chart.
     *
     * @param title the chart's title
     * @param runs  the runs; no two with the same structure label and threads per node
     * @return the chart, {@link PngCharts#WIDTH} by {@link #HEIGHT}: one category per thread count, one
     *         series per structure label with its throughput at each, null where it did not run (or, on a
     *         logarithmic axis, had none; a structure with none anywhere has no series)
     * @throws BadArgumentException when there is no run, or naming the structure and thread count that two
     *                              runs share
     */
    public static CategoryChart chart(String title, List<DsRun> runs) {
        if (runs.isEmpty()) {
            throw new BadArgumentException("no data structure run to plot");
        }
        List<Integer> threads = new ArrayList<>(new TreeSet<>(runs.stream()
                .map(r -> r.result().config().threadsPerNode()).toList()));
        List<String> labels = new ArrayList<>();
        for (DsRun r : runs) {
            String label = r.result().config().label();
            if (!labels.contains(label)) {
                labels.add(label);
            }
        }
        Double[][] values = new Double[labels.size()][threads.size()];
        double lowest = Double.POSITIVE_INFINITY;
        double highest = 0;
        for (DsRun r : runs) {
            int s = labels.indexOf(r.result().config().label());
            int t = threads.indexOf(r.result().config().threadsPerNode());
            if (values[s][t] != null) {
                throw new BadArgumentException("two runs of " + labels.get(s) + " with " + threads.get(t)
                        + " threads per node");
            }
            double v = r.result().opsPerSecond();
            values[s][t] = v;
            if (v > 0) {
                lowest = Math.min(lowest, v);
                highest = Math.max(highest, v);
            }
        }
        boolean log = highest > 0 && highest / lowest > LINEAR_SPAN_MAX;
        PngCharts.headless();
        CategoryChart chart = new CategoryChartBuilder().width(PngCharts.WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("worker threads per node (--threads)")
                .yAxisTitle("operations per second, all workers" + (log ? " [log]" : "")).build();
        PngCharts.style(chart.getStyler());
        var styler = chart.getStyler();
        styler.setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        styler.setOverlapped(true);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        if (log) {
            PngCharts.logAxis(styler, lowest, highest);
        } else {
            styler.setYAxisMin(0.0);
            styler.setYAxisDecimalPattern(LINEAR_AXIS_PATTERN);
        }
        List<String> categories = threads.stream().map(String::valueOf).toList();
        for (int s = 0; s < labels.size(); s++) {
            List<Double> ys = new ArrayList<>();
            for (Double v : values[s]) {
                ys.add(v == null || (log && !(v > 0)) ? null : v);
            }
            if (ys.stream().anyMatch(v -> v != null)) {
                chart.addSeries(labels.get(s), categories, ys);
            }
        }
        return chart;
    }

    /**
     * Draws the chart and writes it as a PNG.
     *
     * @param title the chart's title
     * @param runs  the runs
     * @param png   the file
     * @throws IOException when it cannot be written
     * @throws BadArgumentException as {@link #chart}
     */
    public static void write(String title, List<DsRun> runs, Path png) throws IOException {
        PngCharts.write(chart(title, runs), png);
    }
}
