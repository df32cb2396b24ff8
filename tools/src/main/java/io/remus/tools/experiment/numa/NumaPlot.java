package io.remus.tools.experiment.numa;

import io.remus.bench.numa.NumaRow;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.BarPanel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The NUMA experiment's chart: one panel per measure (pointer-chase latency, sequential read
 * bandwidth, and RDMA READ median when measured), a group of bars per CPU node, one bar per memory
 * node.
 */
public final class NumaPlot {
    private static final String THREAD = "measuring thread pinned to";

    private NumaPlot() {
    }

    /**
     * @param rows the experiment's rows
     * @return the panels
     */
    public static List<BarPanel> panels(List<NumaRow> rows) {
        List<Integer> cpuNodes = rows.stream().map(NumaRow::cpuNode).distinct().sorted().toList();
        List<Integer> memoryNodes = rows.stream().map(NumaRow::memoryNode).distinct().sorted().toList();
        List<String> categories = cpuNodes.stream().map(n -> "node " + n).toList();
        List<String> series = memoryNodes.stream().map(n -> "memory on node " + n).toList();
        double[][] chase = new double[memoryNodes.size()][cpuNodes.size()];
        double[][] seq = new double[memoryNodes.size()][cpuNodes.size()];
        double[][] rdma = new double[memoryNodes.size()][cpuNodes.size()];
        boolean anyRdma = false;
        for (NumaRow r : rows) {
            int s = memoryNodes.indexOf(r.memoryNode());
            int c = cpuNodes.indexOf(r.cpuNode());
            chase[s][c] = r.chaseNanos();
            seq[s][c] = r.sequentialGBps();
            rdma[s][c] = r.rdmaRead() == null ? Double.NaN : r.rdmaRead().median() / 1000.0;
            anyRdma |= r.rdmaRead() != null;
        }
        List<BarPanel> panels = new ArrayList<>();
        panels.add(new BarPanel("dependent load latency", THREAD, "latency [ns per load]", categories, series, chase,
                false));
        panels.add(new BarPanel("sequential read, one thread", THREAD, "bandwidth [GB/s]", categories, series, seq,
                false));
        if (anyRdma) {
            panels.add(new BarPanel("loopback RDMA READ, median", THREAD, "round trip [us]", categories, series, rdma,
                    false));
        }
        return panels;
    }

    /**
     * @param rows  the experiment's rows
     * @param title the chart's title
     * @param png   the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(List<NumaRow> rows, String title, Path png) throws IOException {
        BarChart.write(title, panels(rows), png);
    }
}
