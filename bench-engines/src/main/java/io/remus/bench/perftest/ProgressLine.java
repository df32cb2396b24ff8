package io.remus.bench.perftest;

import java.io.PrintWriter;

/**
 * A progress line for long runs: once a run has lasted two seconds it rewrites one line on the
 * error stream at most once a second, and ends it when the run ends. Not thread-safe.
 */
public final class ProgressLine {
    private static final long QUIET_NANOS = 2_000_000_000L;
    private static final long EVERY_NANOS = 1_000_000_000L;

    private final PrintWriter err;
    private final boolean enabled;
    private String label = "";
    private long start;
    private long last;
    private boolean printed;

    /**
     * @param err     where the line goes
     * @param enabled whether to print at all
     */
    public ProgressLine(PrintWriter err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /**
     * @return a new line set up as this one (printing or not alike, so that a loop ticking it takes
     *         the same branches), for a warm-up round: it prints only if the round runs longer
     *         than a run does before its first progress report
     */
    public ProgressLine twin() {
        return new ProgressLine(err, enabled);
    }

    /**
     * Starts a run.
     *
     * @param what  what is running, e.g. {@code read-lat 64 B}
     * @param now   a {@link io.remus.core.time.ThreadTime#nanoTime()} reading
     */
    public void begin(String what, long now) {
        label = what;
        start = now;
        last = now;
        printed = false;
    }

    /**
     * Reports progress; prints only when due.
     *
     * @param now  a {@link io.remus.core.time.ThreadTime#nanoTime()} reading
     * @param done iterations done so far
     */
    public void tick(long now, long done) {
        if (!enabled || now - start < QUIET_NANOS || now - last < EVERY_NANOS) {
            return;
        }
        last = now;
        printed = true;
        err.printf("\r%s: %d iterations, %d s", label, done, (now - start) / 1_000_000_000L);
        err.flush();
    }

    /** Ends the line if one was printed. */
    public void end() {
        if (printed) {
            err.println();
            err.flush();
        }
    }
}
