package io.remus.tools.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PeakWindowTest {
    @Test
    void shouldReportBestFullWindowWhenSeveralWindowsPassed() {
        PeakWindow w = new PeakWindow(100);
        w.record(0, 5);
        w.record(50, 5);
        w.record(150, 30);
        w.record(250, 1);
        w.record(350, 0);
        assertEquals(30, w.best());
    }

    @Test
    void shouldReportNoPeakWhenFewerThanTwoWindowsCompleted() {
        PeakWindow w = new PeakWindow(100);
        w.record(0, 5);
        w.record(150, 5);
        assertEquals(-1, w.best());
    }

    @Test
    void shouldRejectNonPositiveWindow() {
        assertThrows(IllegalArgumentException.class, () -> new PeakWindow(0));
    }

    @Test
    void shouldComputeBandwidthInPerftestUnitsWhenGivenCounts() {
        BandwidthSummary b = new BandwidthSummary(1 << 20, 1000, 1_000_000_000L, -1, 1_000_000L);
        assertEquals(1000.0, b.averageMbPerSecond(), 1e-9);
        assertEquals(1000.0, b.peakMbPerSecond(), 1e-9);
        assertEquals(1000.0 * (1 << 20) * 8 / 1e9, b.averageGbitsPerSecond(), 1e-9);
        assertEquals(0.001, b.messageRateMpps(), 1e-12);
    }
}
