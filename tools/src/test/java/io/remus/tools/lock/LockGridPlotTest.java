package io.remus.tools.lock;

import io.remus.core.BadArgumentException;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LockGridPlotTest {
    private static final int ALOCK_RED = 0xd62728;

    private static String row(String lock, double p, int keys, double opsPerSec) {
        return String.join(",", "sim", lock, "2", "2", Double.toString(p), Integer.toString(keys), "8", "8", "2.0",
                "100", "90", Double.toString(opsPerSec), "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7");
    }

    private static List<String> grid() {
        return List.of(row("alock", 1, 10, 7e6), row("spin", 1, 10, 3e5), row("mcs", 1, 10, 5e5),
                row("alock", 0.9, 10, 2e6), row("spin", 0.9, 10, 2e6), row("mcs", 0.9, 10, 1e6),
                row("alock", 1, 100, 8e6), row("spin", 1, 100, 4e5));
    }

    private static long pixels(BufferedImage image, int rgb) {
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void shouldDrawOnePanelPerKeyCountWithALockInItsColourWhenRowsAreGiven() {
        BufferedImage image = LockGridPlot.draw(LockCsv.parse(grid()));
        assertEquals(2 * 420, image.getWidth(), "two key counts, two panels side by side");
        assertTrue(pixels(image, ALOCK_RED) > 100, "ALock's line and markers are drawn");
    }

    @Test
    void shouldRejectARowWithTheWrongFieldCountNamingTheLine() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LockCsv.parse(List.of("# comment", "sim,alock,2")));
        assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
    }

    @Test
    void shouldWriteAReadablePngWhenThePlotCommandRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("grid.csv");
        Path png = dir.resolve("grid.png");
        Files.write(csv, grid());
        RemusRun r = RemusRun.of("plot", "lock-grid", csv.toString(), png.toString());
        assertEquals(0, r.exit(), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 0 && image.getHeight() > 0);
    }

    @Test
    void shouldExitWithUsageWhenTheCsvIsMalformedOrMissing(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "sim,alock\n");
        assertEquals(2, RemusRun.of("plot", "lock-grid", csv.toString(), dir.resolve("x.png").toString()).exit());
        assertEquals(2, RemusRun.of("plot", "lock-grid", dir.resolve("none.csv").toString(), dir.resolve("x.png").toString()).exit());
    }
}
