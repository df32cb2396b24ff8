package io.remus.tools.experiment;

import io.remus.bench.object.KvRun;
import io.remus.core.error.BadArgumentException;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.BarPanel;
import io.remus.tools.plot.GroupedBars;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

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
        GroupedBars<KvRun> bars = new GroupedBars<>(runs, "workload", r -> "YCSB " + r.result().workload(),
                r -> r.result().way().flagName());
        String us = "microseconds [log]";
        return List.of(bars.panel("throughput", "operations per second, all workers [log]", r -> r.result().opsPerSecond()),
                bars.panel("read median latency", us, r -> r.reads().median() / 1000.0),
                bars.panel("read p99 latency", us, r -> r.reads().p99() / 1000.0),
                bars.panel("update median latency", us, r -> r.updates().median() / 1000.0),
                bars.panel("update p99 latency", us, r -> r.updates().p99() / 1000.0));
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
        BarChart.write(title, panels(runs), png);
    }
}
