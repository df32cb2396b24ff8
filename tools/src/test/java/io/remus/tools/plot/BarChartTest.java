package io.remus.tools.plot;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BarChartTest {
    private static BarPanel panel(boolean log, double a, double b) {
        return new BarPanel("t", "category", "value [unit]", List.of("x", "y"), List.of("s"), new double[][] {{a, b}},
                log);
    }

    @Test
    void shouldWriteAPngOfOnePanelHeightPerPanelAtTheChartWidth(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("c.png");
        BarChart.write("title", List.of(panel(false, 1, 2), panel(true, 10, 1e4)), png);
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 2 * BarChart.PANEL_HEIGHT, image.getHeight());
    }

    @Test
    void shouldGiveTheChartEverySeriesWithItsValuesAndAxisTitles() {
        BarPanel p = new BarPanel("latency", "operation", "latency [ns]", List.of("read", "write"),
                List.of("local CPU", "loopback QP"), new double[][] {{2, 3}, {200, 300}}, true);
        CategoryChart chart = BarChart.chart(p);
        assertEquals(List.of("local CPU", "loopback QP"), new ArrayList<>(chart.getSeriesMap().keySet()));
        CategorySeries loopback = chart.getSeriesMap().get("loopback QP");
        assertEquals(List.of("read", "write"), new ArrayList<>(loopback.getXData()));
        assertEquals(List.of(200.0, 300.0), new ArrayList<>(loopback.getYData()));
        assertEquals("latency [ns]", chart.getYAxisTitle());
        assertEquals("operation", chart.getXAxisTitle());
        assertTrue(chart.getStyler().isYAxisLogarithmic());
    }

    @Test
    void shouldLeaveOutAMissingValueAndOneNotPositiveOnALogAxis() {
        BarPanel log = new BarPanel("t", "c", "v", List.of("a", "b", "c"), List.of("s"),
                new double[][] {{Double.NaN, 0, 5}}, true);
        assertEquals(Arrays.asList(null, null, 5.0), BarChart.values(log, 0));
        BarPanel linear = new BarPanel("t", "c", "v", List.of("a", "b", "c"), List.of("s"),
                new double[][] {{Double.NaN, 0, 5}}, false);
        assertEquals(Arrays.asList(null, 0.0, 5.0), BarChart.values(linear, 0));
    }

    @Test
    void shouldDrawALinearAxisWhenALogPanelHasNothingPositive() {
        CategoryChart chart = BarChart.chart(panel(true, 0, 0));
        assertFalse(chart.getStyler().isYAxisLogarithmic());
        assertEquals(PngCharts.WIDTH, PngCharts.image(chart).getWidth());
    }

    @Test
    void shouldRejectAPanelWhenValuesDoNotMatchItsShapeOrSeriesRepeat() {
        assertThrows(BadArgumentException.class,
                () -> new BarPanel("t", "c", "u", List.of("x"), List.of("s"), new double[][] {{1, 2}}, false));
        assertThrows(BadArgumentException.class,
                () -> new BarPanel("t", "c", "u", List.of(), List.of("s"), new double[][] {{}}, false));
        assertThrows(BadArgumentException.class,
                () -> new BarPanel("t", "c", "u", List.of("x"), List.of("s", "s"), new double[][] {{1}, {2}}, false));
        assertThrows(BadArgumentException.class, () -> BarChart.draw("t", List.of()));
    }
}
