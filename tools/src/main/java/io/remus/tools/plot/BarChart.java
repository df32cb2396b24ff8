package io.remus.tools.plot;

import io.remus.core.BadArgumentException;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Grouped bar charts as PNG (java.awt through {@link ChartCanvas}): panels side by side, each
 * with its own value axis, sharing one legend of series, as the experiments' results are drawn.
 */
public final class BarChart {
    private static final int PANEL_W = 440;
    private static final int PANEL_H = 340;
    private static final int LEFT = 70;
    private static final int RIGHT = 15;
    private static final int TOP = 30;
    private static final int BOTTOM = 50;
    private static final int HEADER_H = 28;
    private static final int LEGEND_H = 36;
    private static final int LINEAR_TICKS = 5;

    private BarChart() {
    }

    /**
     * @param title  the chart's title
     * @param panels the panels, left to right; their series name the legend (the first panel's)
     * @param png    the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(String title, List<BarPanel> panels, Path png) throws IOException {
        ChartCanvas.write(draw(title, panels), png);
    }

    /**
     * @param title  the chart's title
     * @param panels the panels, left to right
     * @return the image
     * @throws BadArgumentException when there are no panels
     */
    public static BufferedImage draw(String title, List<BarPanel> panels) {
        if (panels.isEmpty()) {
            throw new BadArgumentException("no panels to draw");
        }
        BufferedImage image = ChartCanvas.image(panels.size() * PANEL_W, HEADER_H + PANEL_H + LEGEND_H);
        Graphics2D g = ChartCanvas.graphics(image);
        try {
            g.setColor(Color.BLACK);
            ChartCanvas.centered(g, title, image.getWidth() / 2, 18);
            for (int i = 0; i < panels.size(); i++) {
                panel(g, i * PANEL_W, HEADER_H, panels.get(i));
            }
            ChartCanvas.legend(g, LEFT, HEADER_H + PANEL_H + LEGEND_H / 2, panels.getFirst().series());
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void panel(Graphics2D g, int x0, int y0, BarPanel p) {
        int px = x0 + LEFT;
        int py = y0 + TOP;
        int pw = PANEL_W - LEFT - RIGHT;
        int ph = PANEL_H - TOP - BOTTOM;
        g.setColor(Color.BLACK);
        ChartCanvas.centered(g, p.title(), px + pw / 2, y0 + 18);
        g.drawRect(px, py, pw, ph);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (double[] row : p.values()) {
            for (double v : row) {
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        Graphics2D v = (Graphics2D) g.create();
        v.rotate(-Math.PI / 2);
        ChartCanvas.centered(v, p.axisLabel(), -(py + ph / 2), x0 + 14);
        v.dispose();
        if (hi == 0) {
            ChartCanvas.centered(g, "no data", px + pw / 2, py + ph / 2);
            return;
        }
        Axis axis = p.logarithmic() ? Axis.log(lo, hi) : Axis.linear(hi);
        axis.draw(g, px, py, pw, ph);
        g.setColor(Color.BLACK);
        g.drawRect(px, py, pw, ph);
        int groups = p.categories().size();
        int bars = p.series().size();
        double groupW = (double) pw / groups;
        double barW = groupW * 0.8 / bars;
        for (int c = 0; c < groups; c++) {
            int gx = px + (int) Math.round(c * groupW);
            g.setColor(Color.BLACK);
            ChartCanvas.centered(g, p.categories().get(c), gx + (int) (groupW / 2), py + ph + 17);
            for (int s = 0; s < bars; s++) {
                double value = p.values()[s][c];
                if (!(value > 0) && (p.logarithmic() || !(value == 0))) {
                    continue;
                }
                int x = gx + (int) Math.round(groupW * 0.1 + s * barW);
                int y = axis.y(value, py, ph);
                g.setColor(ChartCanvas.color(s));
                g.fillRect(x, y, Math.max(1, (int) Math.floor(barW) - 2), py + ph - y);
            }
        }
    }

    /** A value axis: where a value lies, and its grid lines. */
    private record Axis(boolean log, int[] decades, double top) {
        static Axis log(double lo, double hi) {
            return new Axis(true, ChartCanvas.decades(lo, hi), 0);
        }

        static Axis linear(double hi) {
            return new Axis(false, null, niceTop(hi));
        }

        private static double niceTop(double hi) {
            double step = Math.pow(10, Math.floor(Math.log10(hi / LINEAR_TICKS)));
            for (double m : new double[] {1, 2, 2.5, 5, 10}) {
                if (m * step * LINEAR_TICKS >= hi) {
                    return m * step * LINEAR_TICKS;
                }
            }
            return 10 * step * LINEAR_TICKS;
        }

        int y(double value, int py, int ph) {
            if (log) {
                return Math.max(py, ChartCanvas.logY(value, decades, py, ph));
            }
            return py + ph - (int) Math.round(value / top * ph);
        }

        void draw(Graphics2D g, int px, int py, int pw, int ph) {
            if (log) {
                for (int d = decades[0]; d <= decades[1]; d++) {
                    tick(g, px, pw, ChartCanvas.logY(Math.pow(10, d), decades, py, ph), "1e" + d);
                }
                return;
            }
            for (int i = 0; i <= LINEAR_TICKS; i++) {
                double value = top * i / LINEAR_TICKS;
                tick(g, px, pw, y(value, py, ph), String.format(Locale.ROOT, top >= 100 ? "%.0f" : "%.3g", value));
            }
        }

        private static void tick(Graphics2D g, int px, int pw, int y, String label) {
            g.setColor(new Color(0xdddddd));
            g.drawLine(px + 1, y, px + pw - 1, y);
            g.setColor(Color.BLACK);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) - 6, y + 4);
        }
    }
}
