package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import io.remus.bench.stats.LatencyRecorder;

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
 * measuring begins (docs/FINDINGS.md, "No branch between warm-up and measuring"). For the same reason
 * READ and atomic latency warm up in rehearsal rounds, whole short runs of the loop
 * ({@link #rehearse}), and then measure every iteration of their run.
 */
abstract class TimedLoop {
    /** Unrecorded iterations per rehearsal round ({@link #rehearse}). */
    static final long ROUND_WARMUP = 256;
    /** Recorded iterations per rehearsal round ({@link #rehearse}): a few of the recorder's batches. */
    static final long ROUND_MEASURED = 4 * 1024 + 100;

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
        this(c, s, size, recorder, progress, RunClock.start(s, ThreadTime.nanoTime()));
    }

    /**
     * Starts the size's progress line on a clock of the caller's.
     *
     * @param c        the client side
     * @param s        the settings
     * @param size     the message size
     * @param recorder where measured samples go
     * @param progress the progress line
     * @param clock    the run's clock
     */
    TimedLoop(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder, ProgressLine progress,
              RunClock clock) {
        this.c = c;
        this.ids = new long[c.completionCapacity()];
        this.timeout = s.timeout().toNanos();
        this.clock = clock;
        this.recorder = recorder;
        this.recorders = new LatencyRecorder[] {recorder.warmupTwin(), recorder};
        this.progress = progress;
        this.label = s.test().commandName() + " " + size + " B";
        progress.begin(label, clock.startNanos());
    }

    /**
     * Runs the size: iterations while the clock says so, then finishes the recorder and the
     * progress line. A rehearsal round and a measured run execute exactly this, so that neither
     * takes a branch the other never took ({@link #rehearse}).
     *
     * @return the iterations run, warm-up included
     */
    final long run() {
        long now = clock.startNanos();
        long i = 0;
        for (; clock.continues(i, now); i++) {
            now = iteration(i);
        }
        WindowMarks.end();
        recorder.finish();
        progress.end();
        return i;
    }

    /**
     * Runs the size as a measured run: {@link #run()}, then, with {@code remus.bench.pollStats},
     * one line on standard error: its iterations, the empty checks and yields of its waits, and the
     * JIT compilation that finished inside its measured window.
     *
     * @return the iterations run, warm-up included
     */
    final long measure() {
        long emptyBefore = CompletionWait.emptyChecks;
        long yieldsBefore = CompletionWait.yields;
        long i = run();
        if (CompletionWait.COUNTING) {
            long warmup = clock.measuredFrom();
            System.err.println("remus bench: " + label + ": " + i + " iterations ("
                    + (warmup > 0 ? "the first " + warmup + " warm-up" : "all measured") + "), "
                    + (CompletionWait.emptyChecks - emptyBefore) + " empty checks, "
                    + (CompletionWait.yields - yieldsBefore) + " yields, " + clock.windowJitNote());
        }
        return i;
    }

    /**
     * Warms a latency loop up in rehearsal rounds before its measured run (which then needs no
     * warm-up of its own: {@link RunClock#measuredOnly}). Each round is a whole short run of the
     * loop: {@link #ROUND_WARMUP} unrecorded and {@link #ROUND_MEASURED} recorded iterations (fewer
     * in the same proportion when less than that is left of the warm-up asked for; in
     * duration mode a 1 ms margin, a 10 ms window and a 1 ms margin), into a fresh throwaway
     * recorder set up as the measured one, so that every branch the measured run takes (its clock's
     * window opening and closing, a fresh histogram's first samples, the batch recording) was taken
     * before and the JIT compiled it. Rounds go on until {@code s.warmupIterations()} iterations
     * ran and {@code jit} says the JIT is quiet (or gave up). A warm-up inside the measured run
     * leaves those branches as traps: in a Soft-RoCE guest the loop, the clock and the
     * recording were deoptimized as the window opened and compiled again inside it, hundreds of
     * milliseconds of C1 and C2 beside the measured operations (docs/FINDINGS.md,
     * "Rehearsal rounds"). The rounds' windows are not marked ({@link WindowMarks#hold}).
     *
     * @param s     the settings
     * @param like  the measured run's recorder (rounds record into fresh twins of it)
     * @param jit   the wait for a quiet JIT
     * @param round runs one round on the clock and recorder given, with a {@link ProgressLine#twin()}
     *              of the measured run's line; returns its iterations
     */
    static void rehearse(BenchSettings s, LatencyRecorder like, JitQuiet jit, Round round) {
        jit.warmUpInRounds(s.durationMode() ? 0 : s.warmupIterations(), true, done -> {
            long now = ThreadTime.nanoTime();
            // a round is whole, unless less than one is left of the warm-up asked for
            long left = s.warmupIterations() - done;
            long whole = roundIterations(s);
            long n = left > 0 && left < whole ? left : whole;
            long unrecorded = n * ROUND_WARMUP / (ROUND_WARMUP + ROUND_MEASURED);
            RunClock clock = s.durationMode() ? RunClock.rehearsal(now) : RunClock.round(now, unrecorded, n - unrecorded);
            return round.run(clock, like.warmupTwin());
        });
    }

    /**
     * @param s the settings
     * @return the iterations of a whole rehearsal round: {@link #ROUND_WARMUP} plus {@link #ROUND_MEASURED}, but
     *         never more than the larger of {@code -n} and {@code --warmup}, so that the JIT wait, which checks
     *         its time limit between rounds, ends within {@link JitQuiet#MOST_NANOS} and one round the user's own
     *         flags bound (thousands of 256 MiB READs a round would not end)
     */
    static long roundIterations(BenchSettings s) {
        return Math.max(1, Math.min(ROUND_WARMUP + ROUND_MEASURED, Math.max(s.iterations(), s.warmupIterations())));
    }

    /** One rehearsal round of a latency loop ({@link #rehearse}). */
    @FunctionalInterface
    interface Round {
        /**
         * @param clock    the round's clock
         * @param recorder the round's throwaway recorder
         * @return the iterations it ran
         */
        long run(RunClock clock, LatencyRecorder recorder);
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
