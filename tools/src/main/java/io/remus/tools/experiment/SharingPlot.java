package io.remus.tools.experiment;

import io.remus.bench.object.SharingRun;
import io.remus.core.error.BadArgumentException;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.BarPanel;
import io.remus.tools.plot.GroupedBars;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

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
        GroupedBars<SharingRun> bars = new GroupedBars<>(runs, "workers per node", r -> r.threadsPerNode() + " threads/node",
                r -> r.result().way().flagName());
        return List.of(bars.panel("throughput", "increments per second, all workers [log]", r -> r.result().opsPerSecond()),
                bars.panel("median latency", "microseconds [log]", r -> r.latency().median() / 1000.0),
                bars.panel("p99 latency", "microseconds [log]", r -> r.latency().p99() / 1000.0));
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
        BarChart.write(title, panels(runs), png);
    }
}
