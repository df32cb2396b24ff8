package io.remus.tools.stats;

/**
 * Tracks the most completions seen in one full fixed-length time window, in O(1) memory: windows
 * start at the first timestamp and follow each other back to back; a window counts once time has
 * passed its end. Not thread-safe.
 */
public final class PeakWindow {
    private final long windowNanos;
    private long windowStart;
    private long inWindow;
    private long best = -1;
    private long fullWindows;
    private boolean started;

    /** @param windowNanos the window length, positive */
    public PeakWindow(long windowNanos) {
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("window must be positive, got " + windowNanos);
        }
        this.windowNanos = windowNanos;
    }

    /**
     * Counts completions at one instant.
     *
     * @param nanos     a {@link System#nanoTime()} reading, not earlier than the previous one
     * @param completed completions at that instant
     */
    public void record(long nanos, long completed) {
        if (!started) {
            started = true;
            windowStart = nanos;
        }
        long passed = (nanos - windowStart) / windowNanos;
        if (passed > 0) {
            best = Math.max(best, inWindow);
            fullWindows += passed;
            windowStart += passed * windowNanos;
            inWindow = 0;
        }
        inWindow += completed;
    }

    /** @return the most completions in one full window, or -1 when fewer than two windows completed */
    public long best() {
        return fullWindows < 2 ? -1 : best;
    }

    /** @return the window length */
    public long windowNanos() {
        return windowNanos;
    }
}
