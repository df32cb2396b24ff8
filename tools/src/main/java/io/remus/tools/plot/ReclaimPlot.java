package io.remus.tools.plot;

import io.remus.bench.reclaim.ReclaimBenchmarkResult;
import io.remus.bench.reclaim.ReclaimerKind;
import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Unreclaimed memory over time, one series per reclaimer run of {@code remus bench reclaim}: the sum
 * of the workers' unreclaimed bytes at each sample, in KiB, on a logarithmic axis so that
 * never-free's growth and the epoch reclaimer's bounded level fit one chart. A sample of less than
 * 1 KiB (nothing unreclaimed, or a few blocks) is drawn at 1 KiB, the axis's floor. One colour per
 * reclaimer; a run with a stalled thread is drawn dashed.
 */
public final class ReclaimPlot {
    /** The chart's height, in pixels. */
    public static final int HEIGHT = 480;
    /** The value a sample under it is drawn at, in KiB. */
    public static final double FLOOR_KIB = 1;

    private ReclaimPlot() {
    }

    /**
     * Makes the chart.
     *
     * @param title the chart's title
     * @param runs  the runs, one series each, with distinct labels
     * @param label a run's label in the legend
     * @return the chart, {@link PngCharts#WIDTH} by {@link #HEIGHT}
     * @throws BadArgumentException when there is no run or two share a label
     */
    public static XYChart chart(String title, List<ReclaimBenchmarkResult> runs,
                                Function<ReclaimBenchmarkResult, String> label) {
        if (runs.isEmpty()) {
            throw new BadArgumentException("no reclamation run to plot");
        }
        PngCharts.headless();
        XYChart chart = new XYChartBuilder().width(PngCharts.WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("time since the workers started [s]")
                .yAxisTitle("unreclaimed [KiB, log; under 1 KiB drawn at 1]").build();
        PngCharts.style(chart.getStyler());
        Set<String> labels = new HashSet<>();
        double highest = FLOOR_KIB * 10;
        for (ReclaimBenchmarkResult r : runs) {
            String name = label.apply(r);
            if (!labels.add(name)) {
                throw new BadArgumentException("the label '" + name + "' is given twice");
            }
            List<ReclaimBenchmarkResult.Sample> samples = r.samples();
            double[] x = new double[samples.size()];
            double[] y = new double[samples.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = samples.get(i).millis() / 1000.0;
                y[i] = Math.max(FLOOR_KIB, samples.get(i).unreclaimedBytes() / 1024.0);
                highest = Math.max(highest, y[i]);
            }
            XYSeries s = chart.addSeries(name, x, y);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(PngCharts.PALETTE[colour(r.config().reclaimer())]);
            if (r.config().stall()) {
                s.setLineStyle(SeriesLines.DASH_DASH);
            }
        }
        var styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setXAxisMin(0.0);
        PngCharts.logAxis(styler, FLOOR_KIB, highest);
        return chart;
    }

    /**
     * Draws the chart and writes it as a PNG.
     *
     * @param title the chart's title
     * @param runs  the runs
     * @param label a run's label in the legend
     * @param png   the file
     * @throws IOException when it cannot be written
     */
    public static void write(String title, List<ReclaimBenchmarkResult> runs,
                             Function<ReclaimBenchmarkResult, String> label, Path png)
            throws IOException {
        PngCharts.write(chart(title, runs, label), png);
    }

    private static int colour(ReclaimerKind kind) {
        return kind.ordinal() % PngCharts.PALETTE.length;
    }
}
