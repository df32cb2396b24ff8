package io.remus.tools.bench;

/**
 * Decides how long one size runs and which iterations count: in iteration mode the first
 * {@code warmup} iterations run unrecorded, then {@code iterations} are recorded; in duration mode
 * the run lasts {@code duration} and only samples lying wholly inside the margins are recorded.
 */
final class RunClock {
    private final long start;
    private final long total;
    private final long warmup;
    private final long end;
    private final long measureFrom;
    private final long measureTo;
    private final boolean duration;

    private RunClock(long start, long total, long warmup, long end, long measureFrom, long measureTo, boolean duration) {
        this.start = start;
        this.total = total;
        this.warmup = warmup;
        this.end = end;
        this.measureFrom = measureFrom;
        this.measureTo = measureTo;
        this.duration = duration;
    }

    static RunClock start(BenchSettings s, long now) {
        if (s.durationMode()) {
            long d = s.duration().toNanos();
            long m = s.margin().toNanos();
            return new RunClock(now, Long.MAX_VALUE, 0, now + d, now + m, now + d - m, true);
        }
        return new RunClock(now, s.warmupIterations() + s.iterations(), s.warmupIterations(), 0, 0, 0, false);
    }

    /** @return whether iteration {@code done} (0-based) should run at time {@code now} */
    boolean continues(long done, long now) {
        return duration ? now - end < 0 : done < total;
    }

    /** @return whether the sample of iteration {@code index}, from {@code t0} to {@code t1}, is recorded */
    boolean measures(long index, long t0, long t1) {
        return duration ? t0 - measureFrom >= 0 && t1 - measureTo <= 0 : index >= warmup;
    }

    /** @return whether a completion at {@code t} falls in the measured window (duration mode) */
    boolean inWindow(long t) {
        return t - measureFrom >= 0 && t - measureTo <= 0;
    }

    /** @return the measured window's length (duration mode) */
    long windowNanos() {
        return measureTo - measureFrom;
    }

    boolean durationMode() {
        return duration;
    }

    long startNanos() {
        return start;
    }
}
