package io.remus.tools.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Records latency samples in nanoseconds into one histogram for the whole run and, when an
 * interval log is attached, into per-interval histograms written to the log as each interval ends
 * (HdrHistogram's interval log format, readable by {@code HistogramLogProcessor}). Not thread-safe.
 */
public final class LatencyRecorder {
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);
    private final HistogramLogWriter intervalLog;
    private final long intervalNanos;
    private final Histogram interval;
    private long intervalStartNanos;
    private long intervalStartMillis;

    /**
     * @param intervalLog   where interval histograms go, or null for none
     * @param intervalNanos the interval length when logging
     */
    public LatencyRecorder(HistogramLogWriter intervalLog, long intervalNanos) {
        this.intervalLog = intervalLog;
        this.intervalNanos = intervalNanos;
        this.interval = intervalLog == null ? null : new Histogram(SIGNIFICANT_DIGITS);
    }

    /** @return a recorder without an interval log */
    public static LatencyRecorder withoutIntervals() {
        return new LatencyRecorder(null, 1);
    }

    /**
     * Records one sample.
     *
     * @param nanos the sample
     * @param now   a {@link System#nanoTime()} reading taken at its end
     */
    public void record(long nanos, long now) {
        total.recordValue(nanos);
        if (interval != null) {
            if (interval.getTotalCount() == 0 && intervalStartNanos == 0) {
                startInterval(now);
            }
            interval.recordValue(nanos);
            if (now - intervalStartNanos >= intervalNanos) {
                flushInterval(now);
            }
        }
    }

    private void startInterval(long now) {
        intervalStartNanos = now;
        intervalStartMillis = System.currentTimeMillis();
    }

    private void flushInterval(long now) {
        interval.setStartTimeStamp(intervalStartMillis);
        interval.setEndTimeStamp(intervalStartMillis + (now - intervalStartNanos) / 1_000_000);
        intervalLog.outputIntervalHistogram(interval);
        interval.reset();
        startInterval(now);
    }

    /** Writes the last, partial interval (if any samples are in it). */
    public void finish() {
        if (interval != null && interval.getTotalCount() > 0) {
            flushInterval(System.nanoTime());
        }
        intervalStartNanos = 0;
    }

    /** @return the histogram of every sample of the run */
    public Histogram histogram() {
        return total;
    }
}
