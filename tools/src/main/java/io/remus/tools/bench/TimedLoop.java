package io.remus.tools.bench;

import io.remus.tools.stats.LatencyRecorder;

/**
 * The loop of a latency test's client, for one message size: runs iterations while the
 * {@link RunClock} says so and records each one's sample, warm-up samples into the measured
 * recorder's {@link LatencyRecorder#warmupTwin() twin}.
 *
 * <p>One iteration, its timed span and its recording, is {@link #iteration}, a method called once
 * per iteration, which the JIT compiles as soon as it is hot. The loop around it ({@link #run}) is
 * in a method called once per size, which the JIT compiles only by on-stack replacement, late (in
 * a Soft-RoCE guest tens of seconds in, inside the measured window); until then it is interpreted,
 * so nothing of it may lie inside a timed span. The recorder is picked by index, not by a branch: a
 * branch that warm-up never takes is compiled as a trap, and the JIT recompiles the iteration when
 * measuring begins (docs/PERFORMANCE.md, "What we found (fifth session)").
 */
abstract class TimedLoop {
    /** The client side. */
    final BenchConnection c;
    /** Room for the work request ids of one poll. */
    final long[] ids;
    /** The longest wait for one completion or reply, in nanoseconds. */
    final long timeout;
    private final RunClock clock;
    private final LatencyRecorder recorder;
    private final LatencyRecorder[] recorders;
    private final ProgressLine progress;
    private final String label;

    /**
     * Starts the size's clock and its progress line.
     *
     * @param c        the client side
     * @param s        the settings
     * @param size     the message size
     * @param recorder where measured samples go
     * @param progress the progress line
     */
    TimedLoop(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder, ProgressLine progress) {
        this.c = c;
        this.ids = new long[c.completionCapacity()];
        this.timeout = s.timeout().toNanos();
        this.clock = RunClock.start(s, System.nanoTime());
        this.recorder = recorder;
        this.recorders = new LatencyRecorder[] {recorder.warmupTwin(), recorder};
        this.progress = progress;
        this.label = s.test().commandName() + " " + size + " B";
        progress.begin(label, clock.startNanos());
    }

    /**
     * Runs the size: iterations while the clock says so, then finishes the recorder and the
     * progress line.
     *
     * @return the iterations run, warm-up included
     */
    final long run() {
        long now = clock.startNanos();
        long emptyBefore = CompletionWait.emptyChecks;
        long yieldsBefore = CompletionWait.yields;
        long i = 0;
        for (; clock.continues(i, now); i++) {
            now = iteration(i);
        }
        WindowMarks.end();
        recorder.finish();
        progress.end();
        if (CompletionWait.COUNTING) {
            System.err.println("remus bench: " + label + ": " + i + " iterations (warm-up included), "
                    + (CompletionWait.emptyChecks - emptyBefore) + " empty checks, "
                    + (CompletionWait.yields - yieldsBefore) + " yields, " + clock.windowJitNote());
        }
        return i;
    }


    /**
     * Runs iteration {@code i}: its timed span, then {@link #record}.
     *
     * @return the time its timed span ended
     */
    abstract long iteration(long i);

    /**
     * Records iteration {@code i}'s sample and ticks the progress line.
     *
     * @param i      the iteration
     * @param t0     when its timed span began
     * @param now    when it ended
     * @param sample the sample to record (the span, or half of it)
     */
    final void record(long i, long t0, long now, long sample) {
        recorders[clock.measuredIndex(i, t0, now)].record(sample, now);
        progress.tick(now, i + 1);
    }
}
