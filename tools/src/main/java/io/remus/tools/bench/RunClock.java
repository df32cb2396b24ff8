package io.remus.tools.bench;

/**
 * Decides how long one size runs and which iterations count: in iteration mode at least
 * {@code warmup} iterations run unrecorded, and then more until the JIT is quiet ({@link JitQuiet}:
 * once per JVM, at most {@link JitQuiet#MOST_NANOS} longer; none when {@code warmup} is 0), then
 * {@code iterations} are recorded; in duration mode the run lasts {@code duration} and only samples
 * lying wholly inside the margins are recorded. A responder must therefore answer until the client
 * says it is done, not count on {@code warmup + iterations}.
 */
final class RunClock {
    private final long start;
    private final long total;
    private final long warmup;
    private final long end;
    private final long measureFrom;
    private final long measureTo;
    private final boolean duration;
    private final JitQuiet jit;
    private long measuredFrom;

    private RunClock(long start, long total, long warmup, long end, long measureFrom, long measureTo, boolean duration) {
        this.start = start;
        this.total = total;
        this.jit = duration || warmup == 0 ? null : new JitQuiet(start);
        this.measuredFrom = jit == null ? warmup : -1;
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
        if (duration) {
            return now - end < 0;
        }
        if (measuredFrom < 0) {
            if (done < warmup) {
                return true;
            }
            if (!jit.quiet(now)) {
                if (now - start < JitQuiet.MOST_NANOS) {
                    return true;
                }
                JitQuiet.giveUp();
            }
            measuredFrom = done;
        }
        return done < measuredFrom + total - warmup;
    }

    /** @return whether the sample of iteration {@code index}, from {@code t0} to {@code t1}, is recorded */
    boolean measures(long index, long t0, long t1) {
        return duration ? t0 - measureFrom >= 0 && t1 - measureTo <= 0 : measuredFrom >= 0 && index >= measuredFrom;
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
