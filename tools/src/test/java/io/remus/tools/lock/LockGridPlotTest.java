package io.remus.tools.lock;

import io.remus.core.error.BadArgumentException;
import io.remus.tools.RemusRun;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LockGridPlotTest {
    private static String row(String lock, double p, int keys, double opsPerSec) {
        return String.join(",", "sim", lock, "2", "2", Double.toString(p), Integer.toString(keys), "8", "8", "2.0",
                "100", "90", Double.toString(opsPerSec), "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7");
    }

    private static List<String> grid() {
        return List.of(row("alock", 1, 10, 7e6), row("spin", 1, 10, 3e5), row("mcs", 1, 10, 5e5),
                row("alock", 0.9, 10, 2e6), row("spin", 0.9, 10, 2e6), row("mcs", 0.9, 10, 1e6),
                row("alock", 1, 100, 8e6), row("spin", 1, 100, 4e5), row("alock", 1, 100, 6e6),
                row("alock", 1, 100, 1e6));
    }

    private static List<Number> y(CategoryChart chart, String series) {
        CategorySeries s = chart.getSeriesMap().get(series);
        return s == null ? null : new ArrayList<>(s.getYData());
    }

    @Test
    void shouldDrawOnePanelPerKeyCountWithOneSeriesPerLockAndTheMedianOfRepeatedRows() {
        List<CategoryChart> panels = LockGridPlot.panels(LockCsv.parse(grid()));
        assertEquals(List.of("sim fabric, 10 keys", "sim fabric, 100 keys"),
                panels.stream().map(CategoryChart::getTitle).toList());
        CategoryChart ten = panels.get(0);
        assertEquals(List.of("alock", "spin", "mcs"), new ArrayList<>(ten.getSeriesMap().keySet()));
        assertEquals(List.of("1.00", "0.90"), new ArrayList<>(ten.getSeriesMap().get("alock").getXData()),
                "p_local falls left to right");
        assertEquals(List.of(7e6, 2e6), y(ten, "alock"));
        assertEquals(List.of(5e5, 1e6), y(ten, "mcs"));
        assertTrue(ten.getStyler().isYAxisLogarithmic());
        assertEquals("lock+unlock pairs/s", ten.getYAxisTitle());
        CategoryChart hundred = panels.get(1);
        assertEquals(List.of(6e6), y(hundred, "alock"), "the median of 8e6, 6e6 and 1e6");
        assertEquals(null, y(hundred, "mcs"), "no mcs rows with 100 keys");
    }

    @Test
    void shouldLeaveAPointWithoutThroughputOutOfTheLogAxis() {
        List<CategoryChart> panels = LockGridPlot.panels(LockCsv.parse(List.of(row("alock", 1, 10, 7e6),
                row("alock", 0.5, 10, 0), row("spin", 1, 10, 0), row("spin", 0.5, 10, 0))));
        assertEquals(Arrays.asList(7e6, null), y(panels.getFirst(), "alock"));
        assertEquals(null, y(panels.getFirst(), "spin"), "a lock with no throughput anywhere has no line");
    }

    @Test
    void shouldStackThePanelsAtTheChartWidth() {
        BufferedImage image = LockGridPlot.draw(LockCsv.parse(grid()));
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 2 * LockGridPlot.PANEL_HEIGHT, image.getHeight());
    }

    @Test
    void shouldSayMedianInTheTitleOnlyWhenAPointHadSeveralRuns() {
        String single = LockGridPlot.title(LockCsv.parse(List.of(row("alock", 1, 10, 7e6), row("spin", 1, 10, 3e5),
                row("alock", 0.5, 10, 2e6))));
        assertEquals("lock+unlock throughput over p_local", single);
        assertEquals("lock+unlock throughput over p_local (median of up to 3 runs per point)",
                LockGridPlot.title(LockCsv.parse(grid())));
        assertEquals("lock+unlock throughput over p_local (median of 2 runs per point)",
                LockGridPlot.title(LockCsv.parse(List.of(row("alock", 1, 10, 7e6), row("alock", 1, 10, 6e6)))));
    }

    @Test
    void shouldRejectARowWithTheWrongFieldCountNamingTheLine() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LockCsv.parse(List.of("# comment", "sim,alock,2")));
        assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
        assertThrows(BadArgumentException.class, () -> LockGridPlot.panels(List.of()));
    }

    @Test
    void shouldWriteAReadablePngWhenThePlotCommandRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("grid.csv");
        Path png = dir.resolve("grid.png");
        Files.write(csv, grid());
        RemusRun r = RemusRun.of("plot", "lock-grid", csv.toString(), png.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 2 * LockGridPlot.PANEL_HEIGHT, image.getHeight());
    }

    @Test
    void shouldExitWithUsageWhenTheCsvIsMalformedOrMissing(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "sim,alock\n");
        assertEquals(2, RemusRun.of("plot", "lock-grid", csv.toString(), dir.resolve("x.png").toString()).exit());
        assertEquals(2, RemusRun.of("plot", "lock-grid", dir.resolve("none.csv").toString(), dir.resolve("x.png").toString()).exit());
    }
}
