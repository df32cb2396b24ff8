package io.remus.tools.plot;

import io.remus.core.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BarChartTest {
    private static BarPanel panel(boolean log, double a, double b) {
        return new BarPanel("t", "unit", List.of("x", "y"), List.of("s"), new double[][] {{a, b}}, log);
    }

    @Test
    void shouldDrawOnePanelWidthPerPanelWhenPanelsAreGiven(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("c.png");
        BarChart.write("title", List.of(panel(false, 1, 2), panel(true, 10, 1e4)), png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(2 * BarChart.draw("title", List.of(panel(false, 1, 2))).getWidth(), image.getWidth());
    }

    @Test
    void shouldColourABarWhereItsValueIsAndLeaveAMissingOneOut() {
        BufferedImage image = BarChart.draw("t", List.of(panel(false, 5, Double.NaN)));
        int white = 0xffffff;
        int bottom = 28 + 340 - 50 - 3;
        assertNotEquals(white, image.getRGB(70 + 20 + 40, bottom) & white, "bar of x");
        assertEquals(white, image.getRGB(70 + 177 + 40, bottom) & white, "no bar for y");
    }

    @Test
    void shouldRejectAPanelWhenValuesDoNotMatchItsShape() {
        assertThrows(BadArgumentException.class,
                () -> new BarPanel("t", "u", List.of("x"), List.of("s"), new double[][] {{1, 2}}, false));
        assertThrows(BadArgumentException.class,
                () -> new BarPanel("t", "u", List.of(), List.of("s"), new double[][] {{}}, false));
        assertThrows(BadArgumentException.class, () -> BarChart.draw("t", List.of()));
    }
}
