package io.remus.tools.experiment;

import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.tools.RemusRun;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoopbackExperimentTest {
    @Test
    void shouldMeasureEveryOperationOnEveryPathWhenRunOnSim() {
        List<LoopbackRow> rows;
        try (SimFabric fabric = new SimFabric()) {
            rows = new LoopbackExperiment(200, 4, 10_000_000_000L).run(fabric);
        }
        assertEquals(9, rows.size());
        for (Opcode op : List.of(Opcode.READ, Opcode.WRITE, Opcode.COMPARE_AND_SWAP)) {
            for (AccessPath path : AccessPath.values()) {
                LoopbackRow row = rows.stream().filter(r -> r.operation() == op && r.path() == path).findFirst()
                        .orElseThrow();
                assertEquals(200, row.latency().count());
                assertTrue(row.opsPerSecond() > 0);
            }
        }
    }

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
        assertTrue(run.err().contains("-d applies to --fabric verbs"), run.err());
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
