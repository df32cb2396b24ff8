package io.remus.tools.bench;

import io.remus.tools.stats.LatencyRecorder;

/**
 * Latency of operations that return data (RDMA READ, atomics): one signalled work request at a
 * time, timed from just before the post to the poll that returns its completion. Each sample is a
 * full round trip, as perftest's {@code ib_read_lat} and {@code ib_atomic_lat} measure it.
 * Warm-up samples take the same path as measured ones, into a recorder that is thrown away.
 * One iteration, its timed span and its recording, is one method ({@link Sampler#sample}) called
 * once per iteration, which the JIT compiles as soon as it is hot. The loop around it runs in a
 * method called once per size, which the JIT compiles only by on-stack replacement, late (in a
 * Soft-RoCE guest tens of seconds in, inside the measured window); until then it is interpreted,
 * so nothing of it may lie inside the timed span.
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
        RunClock clock = RunClock.start(s, System.nanoTime());
        progress.begin(s.test().commandName() + " " + size + " B", clock.startNanos());
        Sampler sampler = new Sampler(c, s, size, clock, recorder, progress);
        long now = clock.startNanos();
        for (long i = 0; clock.continues(i, now); i++) {
            now = sampler.sample(i);
        }
        recorder.finish();
        progress.end();
    }

    /** One iteration's work, with everything it needs that does not change between iterations. */
    private static final class Sampler {
        private final BenchConnection c;
        private final long[] ids;
        private final long timeout;
        private final boolean atomic;
        private final AtomicType type;
        private final long resultOffset;
        private final int size;
        private final String what;
        private final RunClock clock;
        private final LatencyRecorder[] recorders;
        private final ProgressLine progress;

        Sampler(BenchConnection c, BenchSettings s, int size, RunClock clock, LatencyRecorder recorder,
                ProgressLine progress) {
            this.c = c;
            this.ids = new long[c.completionCapacity()];
            this.timeout = s.timeout().toNanos();
            this.atomic = s.test().operation() == BenchOperation.ATOMIC;
            this.type = s.atomicType();
            this.resultOffset = c.bufferBytes() / 2;
            this.size = size;
            this.what = s.test().operation().words();
            this.clock = clock;
            this.recorders = new LatencyRecorder[] {recorder.warmupTwin(), recorder};
            this.progress = progress;
        }

        /** Posts iteration {@code i}'s request, waits for its completion, records it. @return the time it completed */
        long sample(long i) {
            long t0 = System.nanoTime();
            if (atomic) {
                c.atomic(0, type, resultOffset, 0, type == AtomicType.FETCH_AND_ADD ? 1 : 0, 0, i, true);
            } else {
                c.read(0, 0, 0, size, i, true);
            }
            long now = CompletionWait.forCompletion(c, ids, t0, timeout, what);
            recorders[clock.measuredIndex(i, t0, now)].record(now - t0, now);
            progress.tick(now, i + 1);
            return now;
        }
    }
}
