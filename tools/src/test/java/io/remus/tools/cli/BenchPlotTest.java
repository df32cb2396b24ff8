package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import io.remus.tools.plot.LatencyPlot;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus bench ... --plot FILE}: the latency spectrum of a run, checked before the run starts. */
class BenchPlotTest {
    @Test
    void shouldDrawTheLatencySpectrumWhenALatencyTestRunsWithPlot(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("read-lat.png");
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "300", "--warmup", "0",
                "--no-progress", "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("wrote " + png), run.err());
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(LatencyPlot.HEIGHT, image.getHeight());
    }

    @Test
    void shouldGiveAUsageErrorNamingPlotWhenABandwidthTestIsAskedForOne(@TempDir Path dir) {
        Path png = dir.resolve("bw.png");
        RemusRun run = RemusRun.of("bench", "read-bw", "--fabric", "sim", "-n", "300", "--plot", png.toString());
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("--plot applies to latency tests"), run.err());
        assertEquals("", run.out(), "no run started");
        assertFalse(Files.exists(png));
    }

    @Test
    void shouldFailBeforeTheRunWhenThePlotCannotBeWritten(@TempDir Path dir) {
        Path png = dir.resolve("no-such-dir").resolve("x.png");
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "300", "--warmup", "0",
                "--no-progress", "--plot", png.toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().startsWith("remus: cannot write " + png), run.err());
        assertEquals("", run.out(), "no run started");
    }
}
