package io.remus.bench.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.OutputStream;

/**
 * Records latency samples in nanoseconds into one histogram for the whole run and, when an
 * interval log is attached, into per-interval histograms written to the log as each interval ends
 * (HdrHistogram's interval log format, readable by {@code HistogramLogProcessor}). The histograms
 * are {@link LatencyHistograms}' fixed-range ones. Not thread-safe.
 *
 * <p>{@link #record} only stores the sample and its time in an array; every {@value #BATCH}
 * samples, and when the histograms are read or the run finishes, a separate method records the
 * stored ones. A benchmark loop's compiled code therefore holds no histogram code: HdrHistogram's
 * data-dependent branches (a new maximum, a new minimum, an interval's first sample) are taken
 * often by a fresh measured histogram and rarely by a warm-up one, and a branch the JIT had seen
 * as never taken was compiled as a trap that sent the loop back to the interpreter when measuring
 * began (docs/FINDINGS.md). The batch's method is called too rarely to be inlined into the loop.
 */
public final class LatencyRecorder {
    /** How many samples {@link #record} stores before they go into the histograms. */
    static final int BATCH = 1024;

    private final Histogram total = LatencyHistograms.create();
    private final long[] samples = new long[BATCH];
    private final long[] times = new long[BATCH];
    private final long baseNanos = System.nanoTime();
    private final long baseMillis = System.currentTimeMillis();
    private int stored;
    private final HistogramLogWriter intervalLog;
    private final long intervalNanos;
    private final long correctionNanos;
    private final Histogram interval;
    private long intervalStartNanos;
    private long intervalStartMillis;

    /**
     * @param intervalLog   where interval histograms go, or null for none
     * @param intervalNanos the interval length when logging
     */
    public LatencyRecorder(HistogramLogWriter intervalLog, long intervalNanos) {
        this(intervalLog, intervalNanos, 0);
    }

    /**
     * @param intervalLog     where interval histograms go, or null for none
     * @param intervalNanos   the interval length when logging
     * @param correctionNanos subtracted from every sample (the clock's own cost, see {@link ClockCost}); samples
     *                        stay at least 0
     */
    public LatencyRecorder(HistogramLogWriter intervalLog, long intervalNanos, long correctionNanos) {
        if (correctionNanos < 0) {
            throw new IllegalArgumentException("correctionNanos must not be negative, got " + correctionNanos);
        }
        this.correctionNanos = correctionNanos;
        this.intervalLog = intervalLog;
        this.intervalNanos = intervalNanos;
        this.interval = intervalLog == null ? null : LatencyHistograms.create();
    }

    /**
     * A recorder for warm-up samples: set up as this one (interval log, interval, correction), but
     * writing its intervals to nowhere. Recording warm-up samples through it runs every branch the
     * measured samples will run, so the JIT compiles them all before measuring begins (a branch
     * never taken during warm-up is compiled as a trap, which recompiles the method when taken).
     *
     * @return a new recorder whose results are thrown away
     */
    public LatencyRecorder warmupTwin() {
        HistogramLogWriter nowhere = intervalLog == null ? null : new HistogramLogWriter(OutputStream.nullOutputStream());
        return new LatencyRecorder(nowhere, intervalNanos, correctionNanos);
    }

    /** @return a recorder without an interval log */
    public static LatencyRecorder withoutIntervals() {
        return new LatencyRecorder(null, 1);
    }

    /**
     * Records one sample: stores it, and every {@value #BATCH}th call records the stored ones into
     * the histograms. Allocates nothing.
     *
     * @param sample the sample, before the correction
     * @param now   a {@link System#nanoTime()} reading taken at its end
     */
    public void record(long sample, long now) {
        int n = stored;
        samples[n] = sample;
        times[n] = now;
        stored = ++n;
        if (n == BATCH) {
            recordStored();
        }
    }

    /** Records the stored samples into the histograms, in order, and empties the store. */
    private void recordStored() {
        for (int k = 0; k < stored; k++) {
            long nanos = LatencyHistograms.clamp(samples[k] - correctionNanos);
            long now = times[k];
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
        stored = 0;
    }

    private void startInterval(long now) {
        intervalStartNanos = now;
        intervalStartMillis = baseMillis + (now - baseNanos) / 1_000_000;
    }

    private void flushInterval(long now) {
        interval.setStartTimeStamp(intervalStartMillis);
        interval.setEndTimeStamp(intervalStartMillis + (now - intervalStartNanos) / 1_000_000);
        intervalLog.outputIntervalHistogram(interval);
        interval.reset();
        startInterval(now);
    }

    /** Records the stored samples and writes the last, partial interval (if any samples are in it). */
    public void finish() {
        recordStored();
        if (interval != null && interval.getTotalCount() > 0) {
            flushInterval(System.nanoTime());
        }
        intervalStartNanos = 0;
    }

    /** @return the histogram of every sample of the run (stored samples are recorded first) */
    public Histogram histogram() {
        recordStored();
        return total;
    }
}
