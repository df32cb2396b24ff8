package io.remus.tools.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeakRateTest {
    @Test
    void shouldReportTheRateOfASteadyStreamWhenOneOperationIsInFlight() {
        PeakRate p = new PeakRate(1, 1);
        for (long k = 0; k < 100; k++) {
            p.posted(0, 100 * k);
            p.completed(0, 100 * k + 100, true);
        }
        assertEquals(1e7, p.bestMessagesPerSecond(), 1.0);
    }

    @Test
    void shouldNeverExceedTheDeviceRateWhenCompletionsArriveInBursts() {
        int queuePairs = 2;
        int depth = 16;
        long opNanos = 100;
        long burstNanos = 50_000;
        PeakRate p = new PeakRate(queuePairs, depth);
        long[] inFlight = new long[queuePairs];
        long deviceFree = 0;
        long[][] done = new long[queuePairs][depth];
        long[] head = new long[queuePairs];
        long[] tail = new long[queuePairs];
        for (long now = 0; now < 20_000_000; now += burstNanos) {
            for (int q = 0; q < queuePairs; q++) {
                while (tail[q] > head[q] && done[q][(int) (head[q] % depth)] <= now) {
                    head[q]++;
                    inFlight[q]--;
                    p.completed(q, now, true);
                }
            }
            for (int q = 0; q < queuePairs; q++) {
                while (inFlight[q] < depth) {
                    p.posted(q, now);
                    deviceFree = Math.max(deviceFree, now) + opNanos;
                    done[q][(int) (tail[q]++ % depth)] = deviceFree;
                    inFlight[q]++;
                }
            }
        }
        double deviceRate = 1e9 / opNanos;
        double average = 1e9 * queuePairs * depth / burstNanos;
        assertTrue(p.bestMessagesPerSecond() <= deviceRate, "peak " + p.bestMessagesPerSecond() + " over " + deviceRate);
        assertTrue(p.bestMessagesPerSecond() >= average / 2, "peak " + p.bestMessagesPerSecond() + " under " + average);
    }

    @Test
    void shouldReportNoPeakWhenFewerCompletionsThanOneSpan() {
        PeakRate p = new PeakRate(1, 4);
        p.posted(0, 0);
        p.completed(0, 10, true);
        assertEquals(-1, p.bestMessagesPerSecond());
    }

    @Test
    void shouldIgnoreSpansOutsideTheMeasuredWindow() {
        PeakRate p = new PeakRate(1, 1);
        for (long k = 0; k < 100; k++) {
            p.posted(0, 100 * k);
            p.completed(0, 100 * k + 100, false);
        }
        assertEquals(-1, p.bestMessagesPerSecond());
    }

    @Test
    void shouldRejectAPostBeyondTheDepthAndACompletionOfNothing() {
        PeakRate p = new PeakRate(1, 1);
        assertThrows(IllegalStateException.class, () -> p.completed(0, 0, true));
        p.posted(0, 0);
        assertThrows(IllegalStateException.class, () -> p.posted(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PeakRate(0, 1));
    }

    @Test
    void shouldComputeBandwidthInPerftestUnitsWhenGivenCounts() {
        BandwidthSummary b = new BandwidthSummary(1 << 20, 1000, 1_000_000_000L, -1);
        assertEquals(1000.0, b.averageMbPerSecond(), 1e-9);
        assertEquals(1000.0, b.peakMbPerSecond(), 1e-9);
        assertEquals(1000.0 * (1 << 20) * 8 / 1e9, b.averageGbitsPerSecond(), 1e-9);
        assertEquals(0.001, b.messageRateMpps(), 1e-12);
        assertEquals(2000.0, new BandwidthSummary(1 << 20, 1000, 1_000_000_000L, 2000).peakMbPerSecond(), 1e-9);
    }
}
