package io.remus.tools.stats;

import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyRecorderTest {
    @Test
    void shouldKeepWarmupSamplesOutOfTheRecorderAndItsLogWhenRecordedThroughItsTwin() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        LatencyRecorder measured = new LatencyRecorder(new HistogramLogWriter(log), 1_000, 100);
        LatencyRecorder twin = measured.warmupTwin();
        for (long t = 1; t <= 10_000; t++) {
            twin.record(5_000, t * 1_000);   // intervals end in the twin, which writes them nowhere
        }
        twin.finish();
        assertEquals(0, log.size(), "the twin wrote nothing into the measured recorder's log");
        assertEquals(0, measured.histogram().getTotalCount());
        assertEquals(10_000, twin.histogram().getTotalCount());
        assertEquals(4_900, twin.histogram().getMaxValue(), 10, "the twin subtracts the same correction");

        measured.record(5_000, 1);
        measured.record(5_000, 2_000);
        measured.finish();
        assertEquals(2, measured.histogram().getTotalCount());
        assertTrue(log.size() > 0, "the measured recorder still writes its intervals");
    }

    @Test
    void shouldKeepSamplesAboveAnHourAsAnHourWhenRecording() {
        LatencyRecorder r = LatencyRecorder.withoutIntervals();
        r.record(1, 0);
        r.record(Long.MAX_VALUE, 0);
        assertEquals(2, r.histogram().getTotalCount());
        assertTrue(r.histogram().valuesAreEquivalent(LatencyHistograms.HIGHEST_NANOS, r.histogram().getMaxValue()),
                "max " + r.histogram().getMaxValue());
        assertEquals(1, r.histogram().getMinValue());
    }
}
