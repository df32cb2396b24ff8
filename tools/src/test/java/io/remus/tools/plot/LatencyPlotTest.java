package io.remus.tools.plot;

import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencyResult;
import io.remus.bench.stats.PercentileDistribution;
import io.remus.core.error.BadArgumentException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyPlotTest {
    /** @return one latency of each whole microsecond from 1 to 100, in nanoseconds */
    private static Histogram oneToHundredUsec() {
        Histogram h = LatencyHistograms.create();
        for (int us = 1; us <= 100; us++) {
            h.recordValue(us * 1000L);
        }
        return h;
    }

    private static PercentileDistribution distribution(String label) {
        return PercentileDistribution.of(label, oneToHundredUsec(), 1000.0);
    }

    @Test
    void shouldPutEachPercentileAtOneOverOneMinusItOnALogScale() {
        assertEquals(1.0, LatencyPlot.x(0), 1e-12);
        assertEquals(10.0, LatencyPlot.x(0.9), 1e-9);
        assertEquals(1000.0, LatencyPlot.x(0.999), 1e-6);
        assertEquals(0.0, LatencyPlot.position(0), 1e-12);
        assertEquals(2.0, LatencyPlot.position(0.99), 1e-9);
        assertEquals(Math.log10(4), LatencyPlot.position(0.75), 1e-12);
    }

    @Test
    void shouldLabelWholeNinesAsPercentilesAndNothingBetween() {
        assertEquals("0%", LatencyPlot.tickLabel(0));
        assertEquals("90%", LatencyPlot.tickLabel(1));
        assertEquals("99%", LatencyPlot.tickLabel(2.0000000001));
        assertEquals("99.9%", LatencyPlot.tickLabel(3));
        assertEquals("99.99%", LatencyPlot.tickLabel(4));
        assertEquals("99.99999%", LatencyPlot.tickLabel(7));
        assertEquals("", LatencyPlot.tickLabel(0.5));
        assertEquals("", LatencyPlot.tickLabel(-1));
    }

    @Test
    void shouldGiveTheChartEveryPointBelowHundredPercentAtItsPosition() {
        PercentileDistribution d = distribution("ours");
        double[] p = d.percentiles();
        double[] us = d.latencyUsec();
        double[][] xy = LatencyPlot.points(d);
        assertEquals(p.length - 1, xy[0].length, "the 100 % point lies at infinity and is left out");
        for (int i = 0; i < xy[0].length; i++) {
            assertEquals(Math.log10(1 / (1 - p[i])), xy[0][i], 1e-12);
            assertEquals(us[i], xy[1][i]);
        }
        assertEquals(100.0, xy[1][xy[1].length - 1], 0.1, "the last point drawn is the maximum");

        XYChart chart = LatencyPlot.chart("t", "latency [us]", List.of(d, distribution("perftest")));
        assertEquals(List.of("ours", "perftest"), new ArrayList<>(chart.getSeriesMap().keySet()));
        XYSeries s = chart.getSeriesMap().get("ours");
        assertArrayEquals(xy[0], s.getXData());
        assertArrayEquals(xy[1], s.getYData());
        assertEquals("percentile", chart.getXAxisTitle());
        assertEquals("latency [us]", chart.getYAxisTitle());
        assertEquals("99%", chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(2.0));
    }

    @Test
    void shouldDrawTheLatencyAxisLogarithmicOnlyWhenLatenciesSpanMoreThanAHundredfold() {
        XYChart linear = LatencyPlot.chart("t", "y",
                List.of(PercentileDistribution.ofSamples("body", new double[] {2, 3, 2, 150})));
        assertFalse(linear.getStyler().isYAxisLogarithmic());
        assertEquals(0.0, linear.getStyler().getYAxisMin());
        XYChart log = LatencyPlot.chart("t", "y",
                List.of(PercentileDistribution.ofSamples("tail", new double[] {2, 3, 2, 4500})));
        assertTrue(log.getStyler().isYAxisLogarithmic());
        assertEquals(1.0, log.getStyler().getYAxisMin(), "the decade below 2 us");
        assertEquals(10000.0, log.getStyler().getYAxisMax(), "the decade above 4.5 ms");
    }

    @Test
    void shouldMoveTheLegendOutOfThePlotWhenThereAreManySeries() {
        List<PercentileDistribution> few = new ArrayList<>();
        List<PercentileDistribution> many = new ArrayList<>();
        for (int i = 0; i <= LatencyPlot.LEGEND_INSIDE_MAX; i++) {
            if (i < LatencyPlot.LEGEND_INSIDE_MAX) {
                few.add(distribution("s" + i));
            }
            many.add(distribution("s" + i));
        }
        assertEquals(Styler.LegendPosition.InsideNW, LatencyPlot.chart("t", "y", few).getStyler().getLegendPosition());
        assertEquals(Styler.LegendPosition.OutsideE, LatencyPlot.chart("t", "y", many).getStyler().getLegendPosition());
        assertEquals(LatencyPlot.HEIGHT, LatencyPlot.height(few.size()));
        assertTrue(LatencyPlot.height(22) > LatencyPlot.HEIGHT, "22 sizes of -a need a taller legend");
        assertEquals(LatencyPlot.height(22), PngCharts.image(LatencyPlot.chart("t", "y",
                java.util.stream.IntStream.range(0, 22).mapToObj(i -> distribution("s" + i)).toList())).getHeight());
    }

    @Test
    void shouldLabelBenchResultsBySizeAndRun() {
        LatencyResult r = LatencyResult.of(64, oneToHundredUsec());
        assertEquals(List.of("64 bytes"), LatencyPlot.ofResults(List.of(r), 1).stream()
                .map(PercentileDistribution::label).toList());
        assertEquals(List.of("64 bytes, run 1", "64 bytes, run 2"), LatencyPlot.ofResults(List.of(r, r), 2).stream()
                .map(PercentileDistribution::label).toList());
        assertEquals(distribution("64 bytes"), LatencyPlot.ofResults(List.of(r), 1).getFirst());
    }

    @Test
    void shouldWriteAPngOfTheChartsSize(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("lat.png");
        LatencyPlot.write("t", "latency [us]", List.of(distribution("a")), png);
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(LatencyPlot.HEIGHT, image.getHeight());
    }

    @Test
    void shouldRejectNoSeriesAndARepeatedLabel() {
        assertThrows(BadArgumentException.class, () -> LatencyPlot.chart("t", "y", List.of()));
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LatencyPlot.chart("t", "y", List.of(distribution("a"), distribution("a"))));
        assertTrue(e.getMessage().contains("'a'"), e.getMessage());
    }
}
