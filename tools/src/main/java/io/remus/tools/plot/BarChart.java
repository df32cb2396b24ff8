package io.remus.tools.plot;

import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Grouped bar charts (XChart category charts) as the experiments draw them: one chart per
 * {@link BarPanel}, each with its own value axis and legend, stacked under one title.
 */
public final class BarChart {
    /** The height of one panel, in pixels. */
    public static final int PANEL_HEIGHT = 380;

    private BarChart() {
    }

    /**
     * Makes the chart of one panel.
     *
     * @param panel the panel
     * @return its chart: a group of bars per category, one bar per series; a value that is NaN, or
     *         not positive on a logarithmic axis, is left out; a logarithmic axis runs from the decade
     *         below the smallest value (bars rise from there) to the decade above the largest
     */
    public static CategoryChart chart(BarPanel panel) {
        PngCharts.headless();
        CategoryChart chart = new CategoryChartBuilder().width(PngCharts.WIDTH).height(PANEL_HEIGHT)
                .title(panel.title()).xAxisTitle(panel.categoryLabel()).yAxisTitle(panel.axisLabel()).build();
        PngCharts.style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        if (panel.logarithmic() && anyPositive(panel)) {
            PngCharts.logAxis(chart.getStyler(), extreme(panel, true), extreme(panel, false));
        }
        for (int s = 0; s < panel.series().size(); s++) {
            chart.addSeries(panel.series().get(s), panel.categories(), values(panel, s));
        }
        return chart;
    }

    /**
     * The values of one series as the chart gets them.
     *
     * @param panel  a panel
     * @param series the series' index
     * @return that series' values as the chart gets them: null where a bar is left out
     */
    public static List<Double> values(BarPanel panel, int series) {
        boolean log = panel.logarithmic() && anyPositive(panel);
        List<Double> values = new ArrayList<>();
        for (double v : panel.values()[series]) {
            values.add(Double.isNaN(v) || (log && !(v > 0)) ? null : v);
        }
        return values;
    }

    private static double extreme(BarPanel panel, boolean smallest) {
        double[] positive = Arrays.stream(panel.values()).flatMapToDouble(Arrays::stream).filter(v -> v > 0).toArray();
        return smallest ? Arrays.stream(positive).min().orElseThrow() : Arrays.stream(positive).max().orElseThrow();
    }

    private static boolean anyPositive(BarPanel panel) {
        for (double[] row : panel.values()) {
            for (double v : row) {
                if (v > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Draws the panels as one image.
     *
     * @param title  the title above all panels
     * @param panels the panels, top to bottom
     * @return the image, {@link PngCharts#WIDTH} wide
     * @throws BadArgumentException when there are no panels
     */
    public static BufferedImage draw(String title, List<BarPanel> panels) {
        if (panels.isEmpty()) {
            throw new BadArgumentException("no panels to draw");
        }
        return PngCharts.stack(title, panels.stream().map(BarChart::chart).toList(), 1);
    }

    /**
     * Draws the panels and writes them as a PNG.
     *
     * @param title  the title above all panels
     * @param panels the panels, top to bottom
     * @param png    the file to write
     * @throws IOException when it cannot be written
     * @throws BadArgumentException when there are no panels
     */
    public static void write(String title, List<BarPanel> panels, Path png) throws IOException {
        PngCharts.write(draw(title, panels), png);
    }
}
