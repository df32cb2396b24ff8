package io.remus.bench.stats;

import io.remus.core.error.BadArgumentException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PercentileDistributionTest {
    /** 1..100 microseconds, one sample each, recorded in nanoseconds. */
    static Histogram oneToHundredUsec() {
        Histogram h = LatencyHistograms.create();
        for (int us = 1; us <= 100; us++) {
            h.recordValue(us * 1000L);
        }
        return h;
    }

    static List<String> hgrmLines(Histogram h, boolean csv) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            h.outputPercentileDistribution(out, PercentileDistribution.TICKS_PER_HALF_DISTANCE, 1000.0, csv);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldRunFromTheSmallestSampleAtZeroToTheLargestAtOneWhenTakenFromAHistogram() {
        PercentileDistribution d = PercentileDistribution.of("x", oneToHundredUsec(), 1000.0);
        double[] p = d.percentiles();
        double[] us = d.latencyUsec();
        assertEquals(0.0, p[0]);
        assertEquals(1.0, us[0], 0.001);
        assertEquals(1.0, p[p.length - 1]);
        assertEquals(100.0, us[us.length - 1], 0.1);
        for (int i = 0; i < p.length; i++) {
            if (p[i] == 0.5) {
                assertEquals(50.0, us[i], 0.05, "the median of 1..100 us");
            }
        }
        for (int i = 1; i < p.length; i++) {
            assertEquals(true, p[i] >= p[i - 1] && us[i] >= us[i - 1], "rising at " + i);
        }
    }

    @Test
    void shouldHoldTheRowsHdrHistogramPrintsForTheSameHistogram() {
        Histogram h = oneToHundredUsec();
        PercentileDistribution d = PercentileDistribution.of("x", h, 1000.0);
        List<String> rows = hgrmLines(h, false).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#") && !l.contains("Percentile")).toList();
        assertEquals(rows.size(), d.size());
        for (int i = 0; i < rows.size(); i++) {
            String[] f = rows.get(i).trim().split("\\s+");
            assertEquals(Double.parseDouble(f[0]), d.latencyUsec()[i], 0.0005, rows.get(i));
            assertEquals(Double.parseDouble(f[1]), d.percentiles()[i], 1e-12, rows.get(i));
        }
    }

    @Test
    void shouldEqualTheHistogramsSpectrumWhenMadeFromSamplesInMicroseconds() {
        double[] samples = new double[100];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i + 1;
        }
        PercentileDistribution fromSamples = PercentileDistribution.ofSamples("x", samples);
        PercentileDistribution fromHistogram = PercentileDistribution.of("x", oneToHundredUsec(), 1000.0);
        assertArrayEquals(fromHistogram.percentiles(), fromSamples.percentiles());
        assertArrayEquals(fromHistogram.latencyUsec(), fromSamples.latencyUsec());
    }

    @Test
    void shouldRejectNoSamplesAndPercentilesOutOfOrder() {
        assertThrows(BadArgumentException.class, () -> PercentileDistribution.ofSamples("x", new double[0]));
        assertThrows(BadArgumentException.class,
                () -> new PercentileDistribution("x", new double[] {0.5, 0.4}, new double[] {1, 2}));
        assertThrows(BadArgumentException.class,
                () -> new PercentileDistribution("x", new double[] {0, 1.5}, new double[] {1, 2}));
        assertThrows(BadArgumentException.class,
                () -> new PercentileDistribution("x", new double[] {0}, new double[] {1, 2}));
    }
}
