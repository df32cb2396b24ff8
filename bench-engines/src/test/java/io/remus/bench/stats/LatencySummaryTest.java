package io.remus.bench.stats;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LatencySummaryTest {
    @Test
    void shouldReportExactStatisticsWhenValuesAreOneToThousand() {
        Histogram h = new Histogram(3);
        for (int v = 1; v <= 1000; v++) {
            h.recordValue(v);
        }
        LatencySummary s = LatencySummary.of(h);
        assertEquals(1000, s.count());
        assertEquals(1, s.min());
        assertEquals(1000, s.max());
        assertEquals(500, s.median());
        assertEquals(500.5, s.mean(), 1e-9);
        assertEquals(Math.sqrt((1000.0 * 1000.0 - 1) / 12.0), s.stdDev(), 1e-6);
        assertEquals(900, s.p90());
        assertEquals(990, s.p99());
        assertEquals(999, s.p999());
        assertEquals(1000, s.p9999());
    }

    @Test
    void shouldKeepOutliersWhenOneSampleIsHuge() {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 999; i++) {
            h.recordValue(1000);
        }
        h.recordValue(1_000_000_000L);
        LatencySummary s = LatencySummary.of(h);
        assertEquals(1000, s.median());
        assertEquals(1_000_000_000L, s.max(), 1_000_000_000L / 1000.0);
        assertEquals((999 * 1000.0 + 1e9) / 1000, s.mean(), 1e9 / 1000 * 0.001);
    }

    @Test
    void shouldBeAllZeroWhenNothingWasRecorded() {
        LatencySummary s = LatencySummary.of(new Histogram(3));
        assertEquals(0, s.count());
        assertEquals(0.0, s.stdDev());
    }

    @Test
    void shouldConvertNanosToUsec() {
        assertEquals(1.5, LatencySummary.usec(1500), 1e-12);
    }
}
