package io.remus.tools.plot;

import io.remus.core.error.BadArgumentException;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes XChart charts as PNG files without a display (every chart factory calls {@link #headless()}
 * before it makes a chart): the tool's house style (fonts readable at 800 pixels wide, one colour per
 * series), several charts stacked into one image under a shared title, and a check that the file
 * can be written before a long run starts.
 */
public final class PngCharts {
    /** The width of every image, in pixels. */
    public static final int WIDTH = 800;
    /** The series colours, in order (matplotlib's ten), so that up to ten series have colours of their own. */
    static final Color[] PALETTE = {new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xff7f0e), new Color(0xe377c2), new Color(0x7f7f7f),
            new Color(0x17becf), new Color(0xbcbd22)};
    /** The height of the title row above stacked charts when the title fits one line, in pixels. */
    public static final int TITLE_HEIGHT = 36;
    /** The height of each further line of a title that {@link #stack} wraps, in pixels. */
    public static final int TITLE_LINE_HEIGHT = 20;
    private static final String FONT = Font.SANS_SERIF;
    private static final Font TITLE_FONT = new Font(FONT, Font.BOLD, 16);
    /** The least room left and right of a stacked image's title, in pixels. */
    private static final int TITLE_MARGIN = 4;
    /** Log-axis labels as plain numbers with thousands separators (XChart's default is 1E6 above 1000). */
    private static final String LOG_AXIS_PATTERN = "#,##0.###";

    private PngCharts() {
    }

    /**
     * Sets {@code java.awt.headless}: charts are drawn off-screen whether or not a display is there,
     * so a stale {@code DISPLAY} cannot stop a PNG from being written. Call it before any AWT class loads.
     */
    public static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /**
     * Applies the house style: white background, fonts readable at {@link #WIDTH} pixels, the palette.
     *
     * @param styler a chart's styler
     */
    public static void style(Styler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendBorderColor(Color.LIGHT_GRAY);
        styler.setChartTitleFont(new Font(FONT, Font.BOLD, 15));
        styler.setLegendFont(new Font(FONT, Font.PLAIN, 13));
        styler.setBaseFont(new Font(FONT, Font.PLAIN, 13));
        styler.setSeriesColors(PALETTE);
        styler.setAntiAlias(true);
        if (styler instanceof AxesChartStyler axes) {
            axes.setAxisTitleFont(new Font(FONT, Font.PLAIN, 14));
            axes.setAxisTickLabelsFont(new Font(FONT, Font.PLAIN, 13));
            axes.setPlotGridLinesColor(new Color(0xdddddd));
        }
    }

    /**
     * Makes the value axis logarithmic from the decade at or below {@code lowest} to the decade at or
     * above {@code highest}, so that at least two decades are labelled; when that is only one decade,
     * its steps (2, 3, ... 9 times the decade) are labelled too. Labels are plain numbers
     * ({@code 1,000,000}, {@code 0.01}).
     *
     * @param styler  a chart's styler
     * @param lowest  the smallest positive value drawn
     * @param highest the largest value drawn
     */
    public static void logAxis(AxesChartStyler styler, double lowest, double highest) {
        double min = Math.pow(10, Math.floor(Math.log10(lowest)));
        double max = Math.pow(10, Math.ceil(Math.log10(highest)));
        if (max <= min) {
            max = min * 10;
        }
        styler.setYAxisLogarithmic(true);
        styler.setYAxisMin(min);
        styler.setYAxisMax(max);
        styler.setYAxisLogarithmicDecadeOnly(max / min > 10.5);
        styler.setYAxisDecimalPattern(LOG_AXIS_PATTERN);
    }

    /**
     * Draws a chart at its own size.
     *
     * @param chart a chart
     * @return the chart drawn at its own size
     */
    public static BufferedImage image(Chart<?, ?> chart) {
        return BitmapEncoder.getBufferedImage(chart);
    }

    /**
     * Stacks charts into one image: a title row, then the charts in {@code columns} columns, row by row. A title
     * wider than the image is broken into lines ({@link #titleLines}), each adding {@link #TITLE_LINE_HEIGHT}
     * pixels to the title row.
     *
     * @param title   the title above all charts, or null for none
     * @param charts  the charts, all of the same size
     * @param columns charts per row
     * @return the image
     * @throws BadArgumentException when there are no charts or {@code columns} is not positive
     */
    public static BufferedImage stack(String title, List<? extends Chart<?, ?>> charts, int columns) {
        if (charts.isEmpty() || columns < 1) {
            throw new BadArgumentException("nothing to draw: " + charts.size() + " charts in " + columns + " columns");
        }
        int w = charts.getFirst().getWidth();
        int h = charts.getFirst().getHeight();
        int cols = Math.min(columns, charts.size());
        int rows = (charts.size() + cols - 1) / cols;
        List<String> lines = title == null ? List.of() : titleLines(title, cols * w);
        int top = lines.isEmpty() ? 0 : TITLE_HEIGHT + (lines.size() - 1) * TITLE_LINE_HEIGHT;
        BufferedImage image = new BufferedImage(cols * w, top + rows * h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setFont(TITLE_FONT);
            g.setColor(Color.BLACK);
            for (int i = 0; i < lines.size(); i++) {
                int width = g.getFontMetrics().stringWidth(lines.get(i));
                g.drawString(lines.get(i), Math.max(TITLE_MARGIN, (image.getWidth() - width) / 2),
                        TITLE_HEIGHT - 12 + i * TITLE_LINE_HEIGHT);
            }
            for (int i = 0; i < charts.size(); i++) {
                g.drawImage(image(charts.get(i)), (i % cols) * w, top + (i / cols) * h, null);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /**
     * Breaks a stacked image's title into lines that each fit {@code width} pixels in the title font, between
     * words, filling each line as far as it goes; a word wider than the line stands on a line of its own.
     *
     * @param title the title
     * @param width the image's width, in pixels
     * @return the lines, top to bottom, at least one
     */
    public static List<String> titleLines(String title, int width) {
        BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = scratch.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setFont(TITLE_FONT);
            return titleLines(title, g.getFontMetrics(), width - 2 * TITLE_MARGIN);
        } finally {
            g.dispose();
        }
    }

    private static List<String> titleLines(String title, FontMetrics metrics, int room) {
        List<String> lines = new ArrayList<>();
        String line = null;
        for (String word : title.split(" ")) {
            String longer = line == null ? word : line + " " + word;
            if (line != null && metrics.stringWidth(longer) > room) {
                lines.add(line);
                line = word;
            } else {
                line = longer;
            }
        }
        lines.add(line);
        return lines;
    }

    /**
     * Writes an image as a PNG.
     *
     * @param image the image
     * @param png   the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(BufferedImage image, Path png) throws IOException {
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    /**
     * Draws a chart and writes it as a PNG.
     *
     * @param chart the chart
     * @param png   the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(Chart<?, ?> chart, Path png) throws IOException {
        write(image(chart), png);
    }
}
