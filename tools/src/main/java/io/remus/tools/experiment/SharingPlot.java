package io.remus.tools.experiment;

import io.remus.bench.object.SharingRun;
import io.remus.core.error.BadArgumentException;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.BarPanel;
import io.remus.tools.plot.PngCharts;
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The runs of {@code remus experiment sharing} as grouped bars: one group per thread count, one bar per
 * way, in three panels on logarithmic axes: throughput, median latency and p99 latency.
 */
public final class SharingPlot {
    private SharingPlot() {
    }

    /**
     * @param runs the runs
     * @return the panels, top to bottom
     * @throws BadArgumentException when there is no run
     */
    public static List<BarPanel> panels(List<SharingRun> runs) {
        if (runs.isEmpty()) {
            throw new BadArgumentException("no sharing run to plot");
        }
        List<String> groups = new ArrayList<>();
        List<String> ways = new ArrayList<>();
        for (SharingRun r : runs) {
            String g = group(r);
            if (!groups.contains(g)) {
                groups.add(g);
            }
            String way = r.result().way().flagName();
            if (!ways.contains(way)) {
                ways.add(way);
            }
        }
        return List.of(
                panel("throughput", "increments per second, all workers [log]", groups, ways, runs,
                        r -> r.result().opsPerSecond()),
                panel("median latency", "microseconds [log]", groups, ways, runs, r -> r.latency().median() / 1000.0),
                panel("p99 latency", "microseconds [log]", groups, ways, runs, r -> r.latency().p99() / 1000.0));
    }

    private static String group(SharingRun r) {
        return r.threadsPerNode() + " threads/node";
    }

    private static BarPanel panel(String title, String axis, List<String> groups, List<String> ways, List<SharingRun> runs,
                                  ToDoubleFunction<SharingRun> value) {
        double[][] values = new double[ways.size()][groups.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
        for (SharingRun r : runs) {
            values[ways.indexOf(r.result().way().flagName())][groups.indexOf(group(r))] = value.applyAsDouble(r);
        }
        return new BarPanel(title, "workers per node", axis, groups, ways, values, true);
    }

    /**
     * Draws the panels and writes them as a PNG.
     *
     * @param title the title above the panels
     * @param runs  the runs
     * @param png   the file
     * @throws IOException when it cannot be written
     */
    public static void write(String title, List<SharingRun> runs, Path png) throws IOException {
        List<CategoryChart> charts = new ArrayList<>();
        for (BarPanel panel : panels(runs)) {
            charts.add(BarChart.chart(panel));
        }
        PngCharts.write(PngCharts.stack(title, charts, 1), png);
    }
}
