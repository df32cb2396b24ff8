package io.remus.tools.experiment;

import io.remus.bench.object.KvRun;
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
 * The runs of {@code remus experiment kv} as grouped bars: one group per YCSB workload, one bar per way,
 * in five panels on logarithmic axes: throughput, and the median and p99 latency of reads and of updates.
 */
public final class KvPlot {
    private KvPlot() {
    }

    /**
     * @param runs the runs
     * @return the panels, top to bottom
     * @throws BadArgumentException when there is no run
     */
    public static List<BarPanel> panels(List<KvRun> runs) {
        if (runs.isEmpty()) {
            throw new BadArgumentException("no key-value run to plot");
        }
        List<String> groups = new ArrayList<>();
        List<String> ways = new ArrayList<>();
        for (KvRun r : runs) {
            if (!groups.contains(group(r))) {
                groups.add(group(r));
            }
            String way = r.result().way().flagName();
            if (!ways.contains(way)) {
                ways.add(way);
            }
        }
        String us = "microseconds [log]";
        return List.of(
                panel("throughput", "operations per second, all workers [log]", groups, ways, runs,
                        r -> r.result().opsPerSecond()),
                panel("read median latency", us, groups, ways, runs, r -> r.reads().median() / 1000.0),
                panel("read p99 latency", us, groups, ways, runs, r -> r.reads().p99() / 1000.0),
                panel("update median latency", us, groups, ways, runs, r -> r.updates().median() / 1000.0),
                panel("update p99 latency", us, groups, ways, runs, r -> r.updates().p99() / 1000.0));
    }

    private static String group(KvRun r) {
        return "YCSB " + r.result().workload();
    }

    private static BarPanel panel(String title, String axis, List<String> groups, List<String> ways, List<KvRun> runs,
                                  ToDoubleFunction<KvRun> value) {
        double[][] values = new double[ways.size()][groups.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
        for (KvRun r : runs) {
            values[ways.indexOf(r.result().way().flagName())][groups.indexOf(group(r))] = value.applyAsDouble(r);
        }
        return new BarPanel(title, "workload", axis, groups, ways, values, true);
    }

    /**
     * Draws the panels and writes them as a PNG.
     *
     * @param title the title above the panels
     * @param runs  the runs
     * @param png   the file
     * @throws IOException when it cannot be written
     */
    public static void write(String title, List<KvRun> runs, Path png) throws IOException {
        List<CategoryChart> charts = new ArrayList<>();
        for (BarPanel panel : panels(runs)) {
            charts.add(BarChart.chart(panel));
        }
        PngCharts.write(PngCharts.stack(title, charts, 1), png);
    }
}
