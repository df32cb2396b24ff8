package io.remus.tools.plot;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The shared drawing pieces of the tool's PNG charts, with java.awt in headless mode (no plotting
 * dependency): a white antialiased canvas, a colour palette, centred text, a legend row, a
 * logarithmic axis's decades, and writing the PNG.
 */
public final class ChartCanvas {
    /** The series colours, in order (matplotlib's first five). */
    public static final List<Color> PALETTE = List.of(new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c),
            new Color(0x9467bd), new Color(0x8c564b));

    private ChartCanvas() {
    }

    /**
     * @param width  pixels
     * @param height pixels
     * @return a white image whose graphics {@link #graphics} prepares
     */
    public static BufferedImage image(int width, int height) {
        System.setProperty("java.awt.headless", "true");
        return new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    }

    /**
     * @param image an image
     * @return its graphics, antialiased, filled white, with a 12-point sans-serif font; dispose it
     */
    public static Graphics2D graphics(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        return g;
    }

    /** @return series {@code i}'s colour */
    public static Color color(int i) {
        return PALETTE.get(i % PALETTE.size());
    }

    /** Draws {@code s} with its centre at {@code x} and its baseline at {@code y}. */
    public static void centered(Graphics2D g, String s, int x, int y) {
        FontMetrics m = g.getFontMetrics();
        g.drawString(s, x - m.stringWidth(s) / 2, y);
    }

    /** Draws one row of colour swatches and names from {@code x}, centred on {@code y}. */
    public static void legend(Graphics2D g, int x, int y, List<String> names) {
        int at = x;
        for (int k = 0; k < names.size(); k++) {
            g.setColor(color(k));
            g.fillRect(at, y - 5, 20, 10);
            g.setColor(Color.BLACK);
            g.drawString(names.get(k), at + 26, y + 5);
            at += 60 + g.getFontMetrics().stringWidth(names.get(k));
        }
    }

    /**
     * @param lo the smallest positive value
     * @param hi the largest value
     * @return the decades {@code [floor(log10 lo), ceil(log10 hi)]}, at least one apart
     */
    public static int[] decades(double lo, double hi) {
        int a = (int) Math.floor(Math.log10(lo));
        int b = (int) Math.ceil(Math.log10(hi));
        return new int[] {a, b == a ? a + 1 : b};
    }

    /** @return the pixel row of {@code value} on a log axis spanning {@code decades} over {@code [py, py + ph]} */
    public static int logY(double value, int[] decades, int py, int ph) {
        double f = (Math.log10(value) - decades[0]) / (decades[1] - decades[0]);
        return py + ph - (int) Math.round(f * ph);
    }

    /**
     * @param image the chart
     * @param png   the file to write
     * @throws IOException when it cannot be written
     */
    public static void write(BufferedImage image, Path png) throws IOException {
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }
}
