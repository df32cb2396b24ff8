package io.remus.bench.stats;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyHistogramsTest {
    @Test
    void samplesOutsideTheRangeAreClampedNotDroppedAndNeverResizeTheHistogram() {
        Histogram h = LatencyHistograms.create();
        int footprint = h.getEstimatedFootprintInBytes();
        LatencyHistograms.record(h, -5);
        LatencyHistograms.record(h, 1_500);
        LatencyHistograms.record(h, Long.MAX_VALUE);
        assertEquals(3, h.getTotalCount());
        assertEquals(0, h.getMinValue());
        assertTrue(h.valuesAreEquivalent(LatencyHistograms.HIGHEST_NANOS, h.getMaxValue()),
                "the largest sample is kept as an hour, got " + h.getMaxValue());
        assertTrue(h.valuesAreEquivalent(1_500, h.getValueAtPercentile(50)));
        assertEquals(footprint, h.getEstimatedFootprintInBytes(), "a fixed-range histogram does not grow");
    }

    @Test
    void clampKeepsValuesInsideTheRange() {
        assertEquals(0, LatencyHistograms.clamp(Long.MIN_VALUE));
        assertEquals(42, LatencyHistograms.clamp(42));
        assertEquals(LatencyHistograms.HIGHEST_NANOS, LatencyHistograms.clamp(LatencyHistograms.HIGHEST_NANOS + 1));
    }
}
