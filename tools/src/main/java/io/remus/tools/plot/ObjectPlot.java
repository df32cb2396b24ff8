package io.remus.tools.plot;

import io.remus.bench.object.ObjectRun;
import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The runs of {@code remus bench object} as grouped bars: one group per object (with and without the
 * stall), one bar per implementation, in three panels on logarithmic axes: throughput, the live workers'
 * p99.9 latency, and their largest latency. The group names are drawn slanted, so that a dozen fit.
 */
public final class ObjectPlot {
    private static final int LABEL_ROTATION = 30;

    private ObjectPlot() {
    }

    /**
     * @param runs the runs
     * @return the panels, top to bottom
     * @throws BadArgumentException when there is no run
     */
    public static List<BarPanel> panels(List<ObjectRun> runs) {
        if (runs.isEmpty()) {
            throw new BadArgumentException("no object run to plot");
        }
        GroupedBars<ObjectRun> bars = new GroupedBars<>(runs, "object (+stall: worker 0 stood still for half of the run)",
                ObjectRun::group, r -> r.result().config().impl().flagName());
        return List.of(bars.panel("throughput", "operations per second, all workers [log]", r -> r.result().opsPerSecond()),
                bars.panel("p99.9 latency of the live workers", "microseconds [log]", r -> r.latency().p999() / 1000.0),
                bars.panel("largest latency of the live workers", "microseconds [log]", r -> r.latency().max() / 1000.0));
    }

    /**
     * Draws the panels and writes them as a PNG.
     *
     * @param title the title above the panels
     * @param runs  the runs
     * @param png   the file
     * @throws IOException when it cannot be written
     */
    public static void write(String title, List<ObjectRun> runs, Path png) throws IOException {
        List<CategoryChart> charts = new ArrayList<>();
        for (BarPanel panel : panels(runs)) {
            CategoryChart chart = BarChart.chart(panel);
            chart.getStyler().setXAxisLabelRotation(LABEL_ROTATION);
            charts.add(chart);
        }
        PngCharts.write(PngCharts.stack(title, charts, 1), png);
    }
}
