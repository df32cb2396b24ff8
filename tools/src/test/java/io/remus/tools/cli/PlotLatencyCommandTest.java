package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import io.remus.tools.plot.LatencyPlot;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlotLatencyCommandTest {
    private static Path hgrm(Path dir) throws IOException {
        org.HdrHistogram.Histogram h = io.remus.bench.stats.LatencyHistograms.create();
        for (int i = 1; i <= 500; i++) {
            h.recordValue(2000 + i * 7L);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(out, 1000.0);
        }
        return Files.write(dir.resolve("ours.hgrm"), bytes.toByteArray());
    }

    private static Path raw(Path dir) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= 500; i++) {
            s.append(2.5 + i * 0.006).append('\n');
        }
        return Files.writeString(dir.resolve("perftest.txt"), s);
    }

    /** Asserts a failed run with exactly one line on standard error, {@code remus: ...} containing {@code text}. */
    private static void assertOneLineError(RemusRun run, String text) {
        assertNotEquals(0, run.exit(), run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("remus: ") && run.err().contains(text), run.err());
    }

    @Test
    void shouldDrawBothFormatsOnOneChartWhenLabelledFilesAreGiven(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("both.png");
        RemusRun run = RemusRun.of("plot", "latency", "--out", png.toString(), "--title", "read-lat, rxe",
                "remus=" + hgrm(dir), "perftest=" + raw(dir));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("wrote " + png + " (2 series)"), run.out());
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(LatencyPlot.HEIGHT, image.getHeight());
    }

    @Test
    void shouldFailOnOneLineNamingTheMissingFile(@TempDir Path dir) {
        Path missing = dir.resolve("none.hgrm");
        RemusRun run = RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), "a=" + missing);
        assertOneLineError(run, missing + ": no such file");
        assertFalse(Files.exists(dir.resolve("x.png")));
    }

    @Test
    void shouldFailOnOneLineNamingTheLineThatCannotBeParsed(@TempDir Path dir) throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.txt"), "1.5\n2.5\nx7\n");
        RemusRun run = RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), "a=" + bad);
        assertOneLineError(run, bad + " line 3: 'x7' is not a number");
    }

    @Test
    void shouldFailOnOneLineWhenAnArgumentHasNoLabel(@TempDir Path dir) throws IOException {
        Path file = raw(dir);
        RemusRun run = RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), file.toString());
        assertOneLineError(run, "'" + file + "' is not LABEL=FILE");
        assertOneLineError(RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), "=" + file),
                "is not LABEL=FILE");
        assertOneLineError(RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), "a="),
                "is not LABEL=FILE");
    }

    @Test
    void shouldFailOnOneLineWhenOutCannotBeWrittenBeforeReadingTheFiles(@TempDir Path dir) {
        Path out = dir.resolve("no-such-dir").resolve("x.png");
        RemusRun run = RemusRun.of("plot", "latency", "--out", out.toString(), "a=" + dir.resolve("none.txt"));
        assertOneLineError(run, "--out " + out + ": cannot be created");
        assertOneLineError(RemusRun.of("plot", "latency", "--out", dir.toString(), "a=" + dir.resolve("none.txt")),
                "is a directory");
    }

    @Test
    void shouldFailOnOneLineWithoutOutOrWithoutFiles(@TempDir Path dir) throws IOException {
        assertOneLineError(RemusRun.of("plot", "latency", "a=" + raw(dir)), "--out");
        assertOneLineError(RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString()), "LABEL=FILE");
    }

    @Test
    void shouldFailOnOneLineWhenALabelRepeats(@TempDir Path dir) throws IOException {
        Path file = raw(dir);
        assertOneLineError(RemusRun.of("plot", "latency", "--out", dir.resolve("x.png").toString(), "a=" + file,
                "a=" + file), "'a' is given twice");
    }
}
