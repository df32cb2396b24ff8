package io.remus.bench.stats;

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

    @Test
    void shouldRecordEveryStoredSampleWhenMoreThanABatchAreRecorded() {
        LatencyRecorder r = new LatencyRecorder(null, 1, 0);
        int n = LatencyRecorder.BATCH * 5 / 2;
        for (int k = 1; k <= n; k++) {
            r.record(k, k);
        }
        assertEquals(n, r.histogram().getTotalCount(), "a partial batch is recorded when the histogram is read");
        assertEquals(1, r.histogram().getMinValue());
        assertTrue(r.histogram().valuesAreEquivalent(n, r.histogram().getMaxValue()));
        r.finish();
        assertEquals(n, r.histogram().getTotalCount(), "finishing records nothing twice");
    }

    @Test
    void shouldEndIntervalsAtTheSamplesTimesWhenSamplesAreBatched() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        LatencyRecorder r = new LatencyRecorder(new HistogramLogWriter(log), 1_000_000, 0);
        long start = System.nanoTime();
        for (int k = 0; k < 3 * LatencyRecorder.BATCH; k++) {
            r.record(500, start + k * 1_000L); // 1 us apart: one interval per 1,000 samples
        }
        r.finish();
        long intervals = log.toString().lines().filter(l -> !l.startsWith("#") && !l.startsWith("\"")).count();
        assertEquals(4, intervals, log.toString()); // three whole intervals of 3,072 samples and the rest
    }
}
