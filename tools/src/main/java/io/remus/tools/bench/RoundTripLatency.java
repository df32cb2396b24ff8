package io.remus.tools.bench;

import io.remus.tools.stats.LatencyRecorder;

/**
 * Latency of operations that return data (RDMA READ, atomics): one signalled work request at a
 * time, timed from just before the post to the poll that returns its completion. Each sample is a
 * full round trip, as perftest's {@code ib_read_lat} and {@code ib_atomic_lat} measure it.
 * Warm-up samples take the same path as measured ones, into a recorder that is thrown away, and one
 * operation is its own method: so the JIT has compiled every method of the measured loop, recording
 * included, before the first measured sample (a loop in a method called once is never compiled).
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
        long[] ids = new long[c.completionCapacity()];
        long timeout = s.timeout().toNanos();
        boolean atomic = s.test().operation() == BenchOperation.ATOMIC;
        AtomicType type = s.atomicType();
        long resultOffset = c.bufferBytes() / 2;
        String what = s.test().operation().words();
        RunClock clock = RunClock.start(s, System.nanoTime());
        progress.begin(s.test().commandName() + " " + size + " B", clock.startNanos());
        LatencyRecorder warmup = new LatencyRecorder(null, 1);
        long now = clock.startNanos();
        for (long i = 0; clock.continues(i, now); i++) {
            long t0 = System.nanoTime();
            now = once(c, ids, atomic, type, resultOffset, size, i, t0, timeout, what);
            (clock.measures(i, t0, now) ? recorder : warmup).record(now - t0, now);
            progress.tick(now, i + 1);
        }
        recorder.finish();
        progress.end();
    }

    private static long once(BenchConnection c, long[] ids, boolean atomic, AtomicType type, long resultOffset,
                             int size, long i, long t0, long timeout, String what) {
        if (atomic) {
            c.atomic(0, type, resultOffset, 0, type == AtomicType.FETCH_AND_ADD ? 1 : 0, 0, i, true);
        } else {
            c.read(0, 0, 0, size, i, true);
        }
        return CompletionWait.forCompletion(c, ids, t0, timeout, what);
    }
}
