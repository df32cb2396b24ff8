package io.remus.tools.lock;

import io.remus.core.BadArgumentException;

import io.remus.tools.plot.ChartCanvas;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Draws the ALock paper's grid as a PNG with java.awt through {@link ChartCanvas} (no plotting dependency): one panel
 * per fabric and key count, throughput (pairs/s, log scale) over p_local (falling left to right, as
 * in the paper), one line per lock kind. Repeated rows of a point are reduced to their median.
 */
public final class LockGridPlot {
    private static final int PANEL_W = 420;
    private static final int PANEL_H = 320;
    private static final int PER_ROW = 3;
    private static final int LEFT = 70;
    private static final int RIGHT = 15;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;
    private static final int LEGEND_H = 40;
    private static final List<String> KIND_ORDER = List.of("alock", "spin", "mcs", "alock-remote-only");

    private LockGridPlot() {
    }

    /**
     * @param rows rows of {@link LockCsv}
     * @param png  the file to write
     * @throws IOException when the file cannot be written
     * @throws BadArgumentException when there are no rows
     */
    public static void write(List<LockCsv.Row> rows, Path png) throws IOException {
        ChartCanvas.write(draw(rows), png);
    }

    /**
     * @param rows rows of {@link LockCsv}
     * @return the image
     * @throws BadArgumentException when there are no rows
     */
    public static BufferedImage draw(List<LockCsv.Row> rows) {
        if (rows.isEmpty()) {
            throw new BadArgumentException("no rows to plot");
        }
        Map<String, List<LockCsv.Row>> panels = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparing(LockCsv.Row::fabric).thenComparingInt(LockCsv.Row::keys))
                .forEach(r -> panels.computeIfAbsent(r.fabric() + ", " + r.keys() + " keys", k -> new ArrayList<>()).add(r));
        List<String> kinds = kinds(rows);
        int cols = Math.min(PER_ROW, panels.size());
        int rowsOfPanels = (panels.size() + PER_ROW - 1) / PER_ROW;
        BufferedImage image = ChartCanvas.image(cols * PANEL_W, rowsOfPanels * PANEL_H + LEGEND_H);
        Graphics2D g = ChartCanvas.graphics(image);
        try {
            int i = 0;
            for (var panel : panels.entrySet()) {
                panel(g, (i % PER_ROW) * PANEL_W, (i / PER_ROW) * PANEL_H, panel.getKey(), panel.getValue(), kinds);
                i++;
            }
            ChartCanvas.legend(g, LEFT, rowsOfPanels * PANEL_H + LEGEND_H / 2, kinds);
        } finally {
            g.dispose();
        }
        return image;
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

    private static void panel(Graphics2D g, int x0, int y0, String title, List<LockCsv.Row> rows, List<String> kinds) {
        List<Double> ps = new ArrayList<>(new TreeSet<>(rows.stream().map(LockCsv.Row::pLocal).toList()).descendingSet());
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (LockCsv.Row r : rows) {
            if (r.opsPerSec() > 0) {
                lo = Math.min(lo, r.opsPerSec());
                hi = Math.max(hi, r.opsPerSec());
            }
        }
        int px = x0 + LEFT;
        int py = y0 + TOP;
        int pw = PANEL_W - LEFT - RIGHT;
        int ph = PANEL_H - TOP - BOTTOM;
        g.setColor(Color.BLACK);
        ChartCanvas.centered(g, title, x0 + LEFT + pw / 2, y0 + 18);
        g.drawRect(px, py, pw, ph);
        if (hi == 0) {
            ChartCanvas.centered(g, "no throughput", px + pw / 2, py + ph / 2);
            return;
        }
        int[] decades = ChartCanvas.decades(lo, hi);
        for (int d = decades[0]; d <= decades[1]; d++) {
            int y = ChartCanvas.logY(Math.pow(10, d), decades, py, ph);
            g.setColor(new Color(0xdddddd));
            g.drawLine(px + 1, y, px + pw - 1, y);
            g.setColor(Color.BLACK);
            String label = "1e" + d;
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) - 6, y + 4);
        }
        for (int i = 0; i < ps.size(); i++) {
            int x = xOf(i, ps.size(), px, pw);
            g.drawLine(x, py + ph, x, py + ph + 4);
            ChartCanvas.centered(g, String.format(Locale.ROOT, "%.2f", ps.get(i)), x, py + ph + 17);
        }
        ChartCanvas.centered(g, "p_local", px + pw / 2, py + ph + 34);
        Graphics2D v = (Graphics2D) g.create();
        v.rotate(-Math.PI / 2);
        v.drawString("lock+unlock pairs/s", -(py + ph / 2) - 55, x0 + 14);
        v.dispose();
        for (int k = 0; k < kinds.size(); k++) {
            g.setColor(ChartCanvas.color(k));
            g.setStroke(new BasicStroke(2f));
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < ps.size(); i++) {
                double value = median(rows, kinds.get(k), ps.get(i));
                if (!(value > 0)) {
                    prevX = -1;
                    continue;
                }
                int x = xOf(i, ps.size(), px, pw);
                int y = ChartCanvas.logY(value, decades, py, ph);
                g.fillOval(x - 4, y - 4, 8, 8);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, x, y);
                }
                prevX = x;
                prevY = y;
            }
        }
        g.setStroke(new BasicStroke(1f));
    }

    private static double median(List<LockCsv.Row> rows, String kind, double p) {
        double[] v = rows.stream().filter(r -> r.lock().equals(kind) && r.pLocal() == p)
                .mapToDouble(LockCsv.Row::opsPerSec).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static int xOf(int i, int n, int px, int pw) {
        return n == 1 ? px + pw / 2 : px + 25 + (int) Math.round((double) i * (pw - 50) / (n - 1));
    }
}
