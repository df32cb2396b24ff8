package io.remus.bench.perftest;

/**
 * Decides how long one size runs and which iterations count. In iteration mode at least
 * {@code warmup} iterations run unrecorded, and then more until the JIT is quiet ({@link JitQuiet}:
 * in full in the benchmark's first warm-up ({@link BenchSettings#jitWait()}), at most {@link JitQuiet#MOST_NANOS} longer; none when {@code warmup} is 0), then
 * {@code iterations} are recorded. In duration mode the leading margin is the warm-up: it lasts
 * the margin and then, in the same way, until the JIT is quiet; then comes the measured window
 * ({@code duration} less both margins) and the trailing margin, and only samples lying wholly
 * inside the window are recorded. A duration-mode clock without a JIT wait ({@code jit} null) ends its
 * leading margin on time alone: the bandwidth test warms up before it in rehearsal rounds
 * ({@link #rehearsal}), short duration-mode runs of their own. A responder must therefore answer
 * until the client says it is done, not count on {@code warmup + iterations} or on {@code duration}.
 * Measuring's start is marked for outside tools ({@link WindowMarks}); the loop marks its end.
 * Latency loops that warm up in rehearsal rounds run each round on a {@link #round} clock and then
 * measure on a {@link #measuredOnly} one, neither of which waits for the JIT.
 */
final class RunClock {
    private final long start;
    private final long total;
    private final long warmup;
    private final long margin;
    private final long window;
    private final boolean duration;
    private final JitQuiet jit;
    private long measuredFrom;
    private long measureFrom;
    private long measureTo;
    private long end;
    private JitActivity windowJit;
    private boolean rehearsal;

    private RunClock(long start, long total, long warmup, long margin, long window, boolean duration, JitQuiet jit) {
        this.start = start;
        this.total = total;
        this.warmup = warmup;
        this.margin = margin;
        this.window = window;
        this.duration = duration;
        this.jit = jit;
        this.measuredFrom = jit == null && !duration ? warmup : -1; // duration mode: its margin comes first
    }

    static RunClock start(BenchSettings s, long now) {
        return start(s, now, s.warmsUp() ? new JitQuiet(now, s.jitWait()) : null);
    }

    /** A rehearsal round's leading and trailing margin ({@link #rehearsal}). */
    static final long REHEARSAL_MARGIN_NANOS = 1_000_000L;
    /** A rehearsal round's window ({@link #rehearsal}). */
    static final long REHEARSAL_WINDOW_NANOS = 10_000_000L;

    /**
     * A short duration-mode clock for a warm-up round: a leading margin, a window and a trailing
     * margin ({@link #REHEARSAL_MARGIN_NANOS}, {@link #REHEARSAL_WINDOW_NANOS}), no JIT wait. A loop
     * driven by it takes every branch a measured duration-mode run takes (margin, window,
     * closing), so the JIT compiles them all before measuring.
     *
     * @param now the round's start
     * @return the round's clock
     */
    static RunClock rehearsal(long now) {
        return rehearsal(now, REHEARSAL_MARGIN_NANOS, REHEARSAL_WINDOW_NANOS);
    }

    /** @return a {@link #rehearsal(long)} round's shape for a report's notes: "1 ms margin, 10 ms window, 1 ms margin" */
    static String describeRehearsal() {
        return REHEARSAL_MARGIN_NANOS / 1_000_000 + " ms margin, " + REHEARSAL_WINDOW_NANOS / 1_000_000 + " ms window, "
                + REHEARSAL_MARGIN_NANOS / 1_000_000 + " ms margin";
    }

    /**
     * {@link #rehearsal(long)} with margins and window of the caller's.
     *
     * @param now    the round's start
     * @param margin each margin, in nanoseconds
     * @param window the window, in nanoseconds
     * @return the round's clock
     */
    static RunClock rehearsal(long now, long margin, long window) {
        RunClock clock = new RunClock(now, Long.MAX_VALUE, 0, margin, window, true, null);
        clock.rehearsal = true;
        return clock;
    }

    /** @return the iterations before measuring began (iteration mode; -1 before it began) */
    long measuredFrom() {
        return measuredFrom;
    }

    /** @return whether this is a warm-up round's clock ({@link #round}, {@link #rehearsal}), not a measured run's */
    boolean rehearsal() {
        return rehearsal;
    }

    /**
     * An iteration-mode clock for a warm-up round of a latency test ({@link TimedLoop#rehearse}):
     * {@code warmup} unrecorded iterations, then {@code measured} recorded ones, no JIT wait. Its
     * loop takes the same branches as a {@link #measuredOnly} run's.
     *
     * @param now      the round's start
     * @param warmup   iterations recorded into the warm-up twin
     * @param measured iterations recorded into the round's recorder
     * @return the round's clock
     */
    static RunClock round(long now, long warmup, long measured) {
        RunClock clock = new RunClock(now, warmup + measured, warmup, 0, 0, false, null);
        clock.rehearsal = true;
        return clock;
    }

    /**
     * The clock of a measured run whose warm-up ran before it, in rehearsal rounds: in iteration
     * mode every iteration is measured and the window begins now (marked now); in duration mode
     * the leading margin, window and trailing margin of {@code s}, the margin ending on time.
     *
     * @param s   the settings
     * @param now the run's start
     * @return the run's clock
     */
    static RunClock measuredOnly(BenchSettings s, long now) {
        if (s.durationMode()) {
            return start(s, now, null);
        }
        RunClock clock = new RunClock(now, s.iterations(), 0, 0, 0, false, null);
        clock.beginWindow();
        return clock;
    }

    /** @param jit the wait for a quiet JIT that the warm-up ends with, null for none (tests pass their own) */
    static RunClock start(BenchSettings s, long now, JitQuiet jit) {
        if (s.durationMode()) {
            long d = s.duration().toNanos();
            long m = s.margin().toNanos();
            return new RunClock(now, Long.MAX_VALUE, 0, m, d - 2 * m, true, jit);
        }
        return new RunClock(now, s.warmupIterations() + s.iterations(), s.warmupIterations(), 0, 0, false, jit);
    }

    /** @return whether iteration {@code done} (0-based) should run at time {@code now} */
    boolean continues(long done, long now) {
        if (duration) {
            if (measuredFrom < 0) {
                if (now - start - margin < 0 || jit != null && stillWarming(now)) {
                    return true;
                }
                measuredFrom = done;
                beginWindow();
                measureFrom = now;
                measureTo = now + window;
                end = measureTo + margin;
            }
            return now - end < 0;
        }
        if (measuredFrom < 0) {
            if (done < warmup || stillWarming(now)) {
                return true;
            }
            measuredFrom = done;
            beginWindow();
        }
        return done < measuredFrom + total - warmup;
    }

    private void beginWindow() {
        WindowMarks.begin();
        if (CompletionWait.COUNTING) {
            windowJit = JitActivity.begin();
        }
    }

    /**
     * @return for the {@code remus.bench.pollStats} diagnostic: the JIT compilation that finished
     *         in the measured window, up to now
     */
    String windowJitNote() {
        return windowJit == null ? "no measured window" : windowJit.note("measured window");
    }

    /** @return whether the warm-up goes on because the JIT is not quiet yet (and may still wait) */
    private boolean stillWarming(long now) {
        if (jit.quiet(now)) {
            return false;
        }
        if (now - start < JitQuiet.MOST_NANOS) {
            return true;
        }
        jit.giveUp();
        return false;
    }

    /** @return whether the sample of iteration {@code index}, from {@code t0} to {@code t1}, is recorded */
    boolean measures(long index, long t0, long t1) {
        return measuredIndex(index, t0, t1) == 1;
    }

    /**
     * {@link #measures} as 1 or 0, computed without a branch: a loop indexes its recorders with it
     * (warm-up, measured). A branch that warm-up never takes would be compiled as a trap, and the
     * JIT would recompile the loop's method when measuring begins, inside the measured window.
     *
     * @return 1 when the sample of iteration {@code index}, from {@code t0} to {@code t1}, is recorded, else 0
     */
    int measuredIndex(long index, long t0, long t1) {
        long inside = duration ? (t0 - measureFrom) | (measureTo - t1) : index - measuredFrom;
        return (int) ((~(measuredFrom | inside)) >>> 63);
    }

    /** @return whether a completion at {@code t} falls in the measured window (duration mode) */
    boolean inWindow(long t) {
        return measuredFrom >= 0 && t - measureFrom >= 0 && t - measureTo <= 0;
    }

    /** @return the measured window's length (duration mode) */
    long windowNanos() {
        return window;
    }

    boolean durationMode() {
        return duration;
    }

    long startNanos() {
        return start;
    }
}
