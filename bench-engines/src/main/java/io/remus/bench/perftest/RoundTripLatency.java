package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import io.remus.bench.stats.LatencyRecorder;

/**
 * Latency of operations that return data (RDMA READ, atomics): one signalled work request at a
 * time, timed from just before the post to the poll that returns its completion. Each sample is a
 * full round trip, as perftest's {@code ib_read_lat} and {@code ib_atomic_lat} measure it.
 * It warms up in rehearsal rounds, whole short runs of the same loop ({@link TimedLoop#rehearse}),
 * and then measures every iteration of its run.
 */
public final class RoundTripLatency {
    private RoundTripLatency() {
    }

    /**
     * Runs one message size on QP 0.
     *
     * @param c        the client side
     * @param s        the settings (iterations or duration, warm-up, atomic type, timeout)
     * @param size     the message size (8 for atomics)
     * @param recorder where samples go
     * @param progress the progress line
     */
    public static void run(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder,
                           ProgressLine progress) {
        if (s.warmsUp()) {
            TimedLoop.rehearse(s, recorder, new JitQuiet(ThreadTime.nanoTime(), s.jitWait()),
                    (clock, throwaway) -> new Sampler(c, s, size, throwaway, progress.twin(), clock).run());
        }
        new Sampler(c, s, size, recorder, progress, RunClock.measuredOnly(s, ThreadTime.nanoTime())).measure();
    }

    /**
     * @param s the settings
     * @return one line for a report's notes: how a latency test that rehearses warms up
     */
    public static String describeWarmUp(BenchSettings s) {
        String round = s.durationMode() ? RunClock.describeRehearsal() : "up to " + TimedLoop.ROUND_WARMUP + " + " + TimedLoop.ROUND_MEASURED + " iterations";
        String rounds = "warm-up: rehearsal rounds of the whole loop (" + round + ", into throwaway histograms)"
                + (s.durationMode() ? "" : ", at least " + s.warmupIterations() + " iterations per size") + ", "
                + JitQuiet.untilQuiet(s.jitWait(), "iterations");
        return s.durationMode() ? rounds + "; then the leading margin of " + s.margin().toMillis() / 1000.0
                + " s; the measured window is -D less both margins" : rounds + "; then every iteration is measured";
    }

    /** One request and its completion per iteration. */
    private static final class Sampler extends TimedLoop {
        private final boolean atomic;
        private final AtomicType type;
        private final long resultOffset;
        private final int size;
        private final String what;

        Sampler(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder, ProgressLine progress,
                RunClock clock) {
            super(c, s, size, recorder, progress, clock);
            this.atomic = s.test().operation() == BenchOperation.ATOMIC;
            this.type = s.atomicType();
            this.resultOffset = c.bufferBytes() / 2;
            this.size = size;
            this.what = s.test().operation().words();
        }

        @Override
        long iteration(long i) {
            long t0 = ThreadTime.nanoTime();
            if (atomic) {
                c.atomic(0, type, resultOffset, 0, type == AtomicType.FETCH_AND_ADD ? 1 : 0, 0, i, true);
            } else {
                c.read(0, 0, 0, size, i, true);
            }
            long now = CompletionWait.forCompletion(c, ids, t0, timeout, what);
            record(i, t0, now, now - t0);
            return now;
        }
    }
}
