package io.remus.tools.lock;

import io.remus.core.error.BadArgumentException;
import io.remus.tools.plot.PngCharts;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Draws the ALock paper's grid as a PNG with XChart: one panel per fabric and key count,
 * throughput (lock+unlock pairs/s, log scale) over p_local (falling left to right, as in the
 * paper), one line per lock kind. Repeated rows of a point are reduced to their median, which the title
 * then says ({@link #title}).
 */
public final class LockGridPlot {
    /** The height of one panel, in pixels. */
    public static final int PANEL_HEIGHT = 360;
    /** Panels stack in one column up to this many, in two beyond. */
    public static final int ONE_COLUMN_MAX = 3;
    private static final List<String> KIND_ORDER = List.of("alock", "spin", "mcs", "alock-remote-only", "alock-parking");
    private static final String TITLE = "lock+unlock throughput over p_local";

    private LockGridPlot() {
    }

    /**
     * Draws the grid and writes it as a PNG.
     *
     * @param rows rows of {@link LockCsv}
     * @param png  the file to write
     * @throws IOException when the file cannot be written
     * @throws BadArgumentException when there are no rows
     */
    public static void write(List<LockCsv.Row> rows, Path png) throws IOException {
        PngCharts.write(draw(rows), png);
    }

    /**
     * Draws the grid as one image.
     *
     * @param rows rows of {@link LockCsv}
     * @return the image: the panels of {@link #panels}, in one column (two when there are more than
     *         {@value #ONE_COLUMN_MAX})
     * @throws BadArgumentException when there are no rows
     */
    public static BufferedImage draw(List<LockCsv.Row> rows) {
        List<CategoryChart> charts = panels(rows);
        return PngCharts.stack(title(rows), charts, charts.size() > ONE_COLUMN_MAX ? 2 : 1);
    }

    /**
     * The grid's title: what it plots and, when a point (a fabric, key count, lock kind and p_local) has
     * several rows, that each point is their median, with how many there were.
     *
     * @param rows rows of {@link LockCsv}
     * @return {@code lock+unlock throughput over p_local}, then {@code (median of N runs per point)} when every
     *         point has N rows, N above 1, or {@code (median of up to N runs per point)} when they differ
     */
    public static String title(List<LockCsv.Row> rows) {
        Map<List<Object>, Integer> runs = new HashMap<>();
        for (LockCsv.Row r : rows) {
            runs.merge(List.of(r.fabric(), r.keys(), r.lock(), r.pLocal()), 1, Integer::sum);
        }
        int most = runs.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int least = runs.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        if (most <= 1) {
            return TITLE;
        }
        return TITLE + " (median of " + (least == most ? "" : "up to ") + most + " runs per point)";
    }

    /**
     * Makes the grid's charts.
     *
     * @param rows rows of {@link LockCsv}
     * @return one chart per fabric and key count, in that order: a category per p_local (highest
     *         first), a series per lock kind with the median throughput at each, null where a kind
     *         has no row (or no throughput, on the logarithmic axis a panel with any throughput gets)
     * @throws BadArgumentException when there are no rows
     */
    public static List<CategoryChart> panels(List<LockCsv.Row> rows) {
        if (rows.isEmpty()) {
            throw new BadArgumentException("no rows to plot");
        }
        Map<String, List<LockCsv.Row>> panels = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparing(LockCsv.Row::fabric).thenComparingInt(LockCsv.Row::keys))
                .forEach(r -> panels.computeIfAbsent(r.fabric() + " fabric, " + r.keys() + " keys",
                        k -> new ArrayList<>()).add(r));
        List<String> kinds = kinds(rows);
        int width = panels.size() > ONE_COLUMN_MAX ? PngCharts.WIDTH / 2 : PngCharts.WIDTH;
        List<CategoryChart> charts = new ArrayList<>();
        for (var panel : panels.entrySet()) {
            charts.add(panel(panel.getKey(), panel.getValue(), kinds, width));
        }
        return charts;
    }

    private static List<String> kinds(List<LockCsv.Row> rows) {
        List<String> kinds = new ArrayList<>();
        for (String k : KIND_ORDER) {
            if (rows.stream().anyMatch(r -> r.lock().equals(k))) {
                kinds.add(k);
            }
        }
        rows.stream().map(LockCsv.Row::lock).distinct().filter(k -> !kinds.contains(k)).forEach(kinds::add);
        return kinds;
    }

    private static CategoryChart panel(String title, List<LockCsv.Row> rows, List<String> kinds, int width) {
        List<Double> ps = new ArrayList<>(new TreeSet<>(rows.stream().map(LockCsv.Row::pLocal).toList()).descendingSet());
        List<String> categories = ps.stream().map(p -> String.format(Locale.ROOT, "%.2f", p)).toList();
        PngCharts.headless();
        CategoryChart chart = new CategoryChartBuilder().width(width).height(PANEL_HEIGHT).title(title)
                .xAxisTitle("p_local (share of pairs on a lock of the worker's own node)")
                .yAxisTitle("lock+unlock pairs/s").build();
        PngCharts.style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        boolean log = rows.stream().anyMatch(r -> r.opsPerSec() > 0);
        if (log) {
            double[] positive = rows.stream().mapToDouble(LockCsv.Row::opsPerSec).filter(v -> v > 0).toArray();
            PngCharts.logAxis(chart.getStyler(), Arrays.stream(positive).min().orElseThrow(),
                    Arrays.stream(positive).max().orElseThrow());
        }
        for (String kind : kinds) {
            List<Double> values = new ArrayList<>();
            for (double p : ps) {
                double v = median(rows, kind, p);
                values.add(Double.isNaN(v) || (log && !(v > 0)) ? null : v);
            }
            if (values.stream().anyMatch(v -> v != null)) {
                chart.addSeries(kind, categories, values);
            }
        }
        return chart;
    }

    private static double median(List<LockCsv.Row> rows, String kind, double p) {
        double[] v = rows.stream().filter(r -> r.lock().equals(kind) && r.pLocal() == p)
                .mapToDouble(LockCsv.Row::opsPerSec).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
