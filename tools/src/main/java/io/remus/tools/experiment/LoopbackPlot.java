package io.remus.tools.experiment;

import io.remus.bench.loopback.LoopbackRow;
import io.remus.bench.loopback.AccessPath;
import io.remus.core.fabric.Opcode;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.BarPanel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The loopback experiment's chart: median latency and throughput, each on a logarithmic axis (the
 * CPU and RDMA paths lie decades apart), a group of bars per operation, one bar per path.
 */
public final class LoopbackPlot {
    private LoopbackPlot() {
    }

    /**
     * @param rows the experiment's rows
     * @return the two panels
     */
    public static List<BarPanel> panels(List<LoopbackRow> rows) {
        List<Opcode> ops = rows.stream().map(LoopbackRow::operation).distinct().toList();
        List<AccessPath> paths = Arrays.stream(AccessPath.values())
                .filter(p -> rows.stream().anyMatch(r -> r.path() == p)).toList();
        double[][] latency = new double[paths.size()][ops.size()];
        double[][] rate = new double[paths.size()][ops.size()];
        for (double[] row : latency) {
            Arrays.fill(row, Double.NaN);
        }
        for (double[] row : rate) {
            Arrays.fill(row, Double.NaN);
        }
        for (LoopbackRow r : rows) {
            int s = paths.indexOf(r.path());
            int c = ops.indexOf(r.operation());
            latency[s][c] = Math.max(1, r.latency().median());
            rate[s][c] = r.opsPerSecond() / 1e6;
        }
        List<String> categories = ops.stream().map(o -> o.name().toLowerCase().replace('_', '-')).toList();
        List<String> series = paths.stream().map(AccessPath::words).toList();
        return List.of(new BarPanel("median latency, one operation at a time", "8-byte operation", "latency [ns]",
                        categories, series, latency, true),
                new BarPanel("throughput", "8-byte operation", "throughput [Mops/s]", categories, series, rate, true));
    }

    /**
     * @param rows  the experiment's rows
     * @param title the chart's title
     * @param png   the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(List<LoopbackRow> rows, String title, Path png) throws IOException {
        BarChart.write(title, panels(rows), png);
    }
}
