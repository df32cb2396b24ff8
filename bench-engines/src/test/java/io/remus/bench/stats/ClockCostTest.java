package io.remus.bench.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClockCostTest {
    @Test
    void shouldBeNonNegativeWhenMeasured() {
        assertTrue(ClockCost.measureNanos(101) >= 0);
    }

    @Test
    void shouldRefuseWhenNoSampleIsAsked() {
        assertThrows(IllegalArgumentException.class, () -> ClockCost.measureNanos(0));
    }

    @Test
    void shouldSubtractTheCorrectionFromEverySampleWhenRecording() {
        LatencyRecorder r = new LatencyRecorder(null, 1, 1000);
        r.record(5000, 0);
        r.record(500, 0);
        assertEquals(4000, r.histogram().getMaxValue(), 10);
        assertEquals(0, r.histogram().getMinValue());
    }
}
