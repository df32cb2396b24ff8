package io.remus.tools.plot;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.awt.image.BufferedImage;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PngChartsTest {
    private static XYChart chart(int width, int height) {
        PngCharts.headless();
        XYChart chart = new XYChartBuilder().width(width).height(height).title("t").build();
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        return chart;
    }

    @Test
    void shouldRunALogAxisFromDecadeToDecadeAndLabelStepsWithinOneDecade() {
        XYChart wide = chart(100, 100);
        PngCharts.logAxis(wide.getStyler(), 2.3e3, 4.1e6);
        assertTrue(wide.getStyler().isYAxisLogarithmic());
        assertEquals(1e3, wide.getStyler().getYAxisMin());
        assertEquals(1e7, wide.getStyler().getYAxisMax());
        assertTrue(wide.getStyler().isYAxisLogarithmicDecadeOnly());

        XYChart narrow = chart(100, 100);
        PngCharts.logAxis(narrow.getStyler(), 120, 720);
        assertEquals(100.0, narrow.getStyler().getYAxisMin());
        assertEquals(1000.0, narrow.getStyler().getYAxisMax());
        assertFalse(narrow.getStyler().isYAxisLogarithmicDecadeOnly(), "one decade: 200, 300 ... labelled");

        XYChart exact = chart(100, 100);
        PngCharts.logAxis(exact.getStyler(), 100, 100);
        assertEquals(100.0, exact.getStyler().getYAxisMin());
        assertEquals(1000.0, exact.getStyler().getYAxisMax());
    }

    @Test
    void shouldStackChartsInRowsUnderTheTitle() {
        BufferedImage two = PngCharts.stack("title", List.of(chart(300, 200), chart(300, 200), chart(300, 200)), 2);
        assertEquals(600, two.getWidth());
        assertEquals(PngCharts.TITLE_HEIGHT + 2 * 200, two.getHeight());
        BufferedImage untitled = PngCharts.stack(null, List.of(chart(300, 200)), 1);
        assertEquals(200, untitled.getHeight());
        assertThrows(BadArgumentException.class, () -> PngCharts.stack("t", List.of(), 1));
    }

    /** A title as {@code remus experiment kv --plot} writes it. */
    static final String KV_TITLE = "remus experiment kv, sim (connectx5), 2 nodes x 4 threads, 10000 keys of 64 B, "
            + "zipf 0.99, p-local 0.75, 10.0 s";

    @Test
    void shouldWrapATitleWiderThanTheImageIntoLinesThatFitAndGrowTheTitleRow() {
        BufferedImage image = PngCharts.stack(KV_TITLE, List.of(chart(PngCharts.WIDTH, 200)), 1);
        int top = image.getHeight() - 200;
        assertTrue(top > PngCharts.TITLE_HEIGHT, "a second line of title: " + top + " pixels");
        for (int y = 0; y < top; y++) {
            for (int x : new int[] {0, 1, 2, image.getWidth() - 3, image.getWidth() - 2, image.getWidth() - 1}) {
                assertEquals(0xffffff, image.getRGB(x, y) & 0xffffff, "title ink at the image's edge, x " + x + " y " + y);
            }
        }
        int inkRows = 0;
        for (int y = PngCharts.TITLE_HEIGHT; y < top; y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) != 0xffffff) {
                    inkRows++;
                    break;
                }
            }
        }
        assertTrue(inkRows > 5, "the second line is drawn: " + inkRows + " rows with ink");
    }

    @Test
    void shouldBreakTheTitleBetweenWordsKeepingEveryWord() {
        List<String> lines = PngCharts.titleLines(KV_TITLE, PngCharts.WIDTH);
        assertTrue(lines.size() > 1, lines.toString());
        assertEquals(KV_TITLE, String.join(" ", lines));
        assertEquals(List.of("title"), PngCharts.titleLines("title", PngCharts.WIDTH));
    }
}
