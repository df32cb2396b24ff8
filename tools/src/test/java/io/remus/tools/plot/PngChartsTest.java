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
}
