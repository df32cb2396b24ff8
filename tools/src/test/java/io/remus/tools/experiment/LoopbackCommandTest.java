package io.remus.tools.experiment;

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

/** {@code remus experiment loopback}: its table, its plot and its usage errors. */
class LoopbackCommandTest {
    @Test
    void shouldPrintSideBySideTableWhenLoopbackCommandRuns() {
        RemusRun run = RemusRun.of("experiment", "loopback", "-n", "200");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("loopback QP"), run.out());
        assertTrue(run.out().contains("remote node"), run.out());
        assertTrue(run.out().contains("throughput[Mops]"), run.out());
    }

    @Test
    void shouldDrawAPlotWhenLoopbackIsAskedForOne(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("loopback.png");
        RemusRun run = RemusRun.of("experiment", "loopback", "-n", "200", "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("plot: " + png), run.out());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 2 * BarChart.PANEL_HEIGHT, image.getHeight(), "latency, throughput");
    }

    @Test
    void shouldGiveUsageErrorWhenADeviceIsNamedForTheSimFabric() {
        RemusRun run = RemusRun.of("experiment", "loopback", "--fabric", "sim", "-d", "rxe0");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("-d rxe0: verbs only; this run is on --fabric sim"), run.err());
    }

    @Test
    void shouldFailCleanlyWhenVerbsIsAskedOnAHostWithoutDevices() {
        if (!io.remus.verbs.Device.list().isEmpty()) {
            return;
        }
        RemusRun run = RemusRun.of("experiment", "loopback", "-n", "10", "--fabric", "verbs");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("no RDMA devices"), run.err());
    }
}
