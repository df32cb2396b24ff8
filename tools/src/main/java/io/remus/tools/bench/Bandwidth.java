package io.remus.tools.bench;

import io.remus.tools.stats.BandwidthSummary;
import io.remus.tools.stats.PeakRate;

/**
 * Bandwidth as perftest's {@code ib_*_bw} measure it: every QP keeps up to
 * {@link BenchSettings#inFlightPerQueuePair()} signalled work requests in flight, refilled as
 * completions arrive. In iteration mode the warm-up runs first, then the clock runs from the first
 * measured post to the last completion; in duration mode only completions inside the margins count,
 * over the window's length. It busy-polls, as perftest does, and yields the CPU between polls only
 * after 65,536 empty polls in a row (a stall of milliseconds, when something else
 * must run for the transfer to go on): in a Soft-RoCE guest yielding after 64 empty polls cost
 * throughput (docs/PERFORMANCE.md).
 */
public final class Bandwidth {
    private static final int SPIN_CHECKS = 1 << 16;

    private Bandwidth() {
    }

    /**
     * Runs one message size.
     *
     * @param c        the client side
     * @param s        the settings
     * @param size     the message size
     * @param progress the progress line
     * @return the result
     */
    public static BandwidthSummary run(BenchConnection c, BenchSettings s, int size, ProgressLine progress) {
        progress.begin(s.test().commandName() + " " + size + " B", System.nanoTime());
        if (!s.durationMode() && s.warmupIterations() > 0) {
            pump(c, s, size, s.warmupIterations(), null, peakRate(c, s), progress);
        }
        RunClock clock = RunClock.start(s, System.nanoTime());
        PeakRate peak = peakRate(c, s);
        long[] counted = pump(c, s, size, s.iterations(), clock, peak, progress);
        progress.end();
        long nanos = clock.durationMode() ? clock.windowNanos() : counted[1] - clock.startNanos();
        return new BandwidthSummary(size, counted[0], nanos, peak.bestMessagesPerSecond());
    }

    private static PeakRate peakRate(BenchConnection c, BenchSettings s) {
        return new PeakRate(c.queuePairs(), s.inFlightPerQueuePair());
    }

    private static long[] pump(BenchConnection c, BenchSettings s, int size, long iterations, RunClock clock,
                               PeakRate peak, ProgressLine progress) {
        int qps = c.queuePairs();
        int depth = s.inFlightPerQueuePair();
        int[] inFlight = new int[qps];
        long[] ids = new long[c.completionCapacity()];
        long timeout = s.timeout().toNanos();
        boolean duration = clock != null && clock.durationMode();
        long posted = 0;
        long outstanding = 0;
        long measured = 0;
        long lastCompletion = System.nanoTime();
        int empty = 0;
        while (true) {
            long now = System.nanoTime();
            boolean posting = duration ? clock.continues(0, now) : posted < iterations;
            if (!posting && outstanding == 0) {
                break;
            }
            for (int q = 0; posting && q < qps; q++) {
                while (inFlight[q] < depth && (duration || posted < iterations)) {
                    peak.posted(q, now);
                    post(c, s, q, size);
                    inFlight[q]++;
                    posted++;
                    outstanding++;
                }
            }
            int n = c.poll(ids);
            if (n == 0) {
                if (++empty > SPIN_CHECKS) {
                    Thread.yield();
                }
                if (now - lastCompletion > timeout) {
                    throw new BenchTimeoutException("no completion of " + s.test().operation().words() + " within "
                            + timeout / 1_000_000 + " ms");
                }
                continue;
            }
            empty = 0;
            long t = System.nanoTime();
            lastCompletion = t;
            boolean measure = !duration || clock.inWindow(t);
            for (int k = 0; k < n; k++) {
                inFlight[(int) ids[k]]--;
                peak.completed((int) ids[k], t, measure);
            }
            outstanding -= n;
            if (measure) {
                measured += n;
            }
            progress.tick(t, measured);
        }
        return new long[] {measured, lastCompletion};
    }

    private static void post(BenchConnection c, BenchSettings s, int qp, int size) {
        long half = c.bufferBytes() / 2;
        switch (s.test().operation()) {
            case READ -> c.read(qp, 0, 0, size, qp, true);
            case WRITE -> c.write(qp, half, 0, size, qp, true);
            case ATOMIC -> c.atomic(qp, s.atomicType(), half + 64L * qp, 64L * qp,
                    s.atomicType() == AtomicType.FETCH_AND_ADD ? 1 : 0, 0, qp, true);
            case SEND -> c.send(qp, half, size, qp, true);
        }
    }
}
