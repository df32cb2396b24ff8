package io.remus.tools.experiment.numa;

import io.remus.bench.numa.NumaNode;
import io.remus.bench.numa.NumaTopology;
import io.remus.tools.RemusRun;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NumaCommandTest {
    private static final NumaTopology TOPOLOGY = NumaTopology.read();

    private static long placements() {
        long cpus = TOPOLOGY.nodes().stream().filter(n -> !n.cpus().isEmpty()).count();
        long memory = TOPOLOGY.nodes().stream().filter(NumaNode::hasMemory).count();
        return cpus * memory;
    }

    @Test
    void shouldPrintOneRowPerPlacementAndDrawAPlotWhenRunOnSim(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("numa.png");
        RemusRun run = RemusRun.of("experiment", "numa", "--size", "1", "-n", "2000", "--rdma-iters", "20",
                "--fabric", "sim", "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        long rows = run.out().lines().filter(l -> l.matches("^\\d+\\s+\\d+\\s+\\d+\\s+.*")).count();
        assertEquals(placements(), rows, run.out());
        assertTrue(run.out().contains("100.0%"), run.out());
        assertTrue(run.out().contains("sim fabric"), run.out());
        if (TOPOLOGY.nodes().size() == 1) {
            assertTrue(run.out().contains("ONE NUMA node"), run.out());
        }
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 3 * BarChart.PANEL_HEIGHT, image.getHeight(), "three panels, stacked");
    }

    @Test
    void shouldLeaveTheRdmaColumnEmptyWhenNoRdmaIsAsked() {
        RemusRun run = RemusRun.of("experiment", "numa", "--size", "1", "-n", "2000", "--no-rdma");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("RDMA: none (--no-rdma)"), run.out());
    }

    @Test
    void shouldGiveUsageErrorsWhenFlagsAreOutOfRange() {
        for (String[] args : new String[][] {{"--size", "0"}, {"-n", "0"}, {"--rdma-size", "65537"},
                {"--rdma-iters", "0"}, {"--timeout", "0"}, {"--no-rdma", "--fabric", "sim"},
                {"--fabric", "sim", "-d", "rxe0"}, {"--fabric", "tcp"}}) {
            String[] full = new String[args.length + 2];
            full[0] = "experiment";
            full[1] = "numa";
            System.arraycopy(args, 0, full, 2, args.length);
            RemusRun run = RemusRun.of(full);
            assertEquals(2, run.exit(), String.join(" ", args) + ": " + run.err());
        }
    }

    @Test
    void shouldFailCleanlyWhenVerbsIsAskedOnAHostWithoutDevices() {
        RemusRun run = RemusRun.of("experiment", "numa", "--size", "1", "-n", "100", "--fabric", "verbs");
        if (io.remus.verbs.Device.list().isEmpty()) {
            assertEquals(1, run.exit(), run.err());
            assertTrue(run.err().contains("remus: "), run.err());
        }
    }
}
