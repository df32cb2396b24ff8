package io.remus.bench.stats;

import java.util.Arrays;

/**
 * What one {@link System#nanoTime()} call adds to a sample taken between two calls: the median
 * difference of back-to-back calls. On real hardware it is tens of nanoseconds (the TSC); in a
 * TCG guest whose clocksource is the HPET it is 1.5-2.3 microseconds, which would inflate every
 * latency sample against perftest, which reads the TSC directly.
 */
public final class ClockCost {
    private static final int WARMUP = 20_000;

    private ClockCost() {
    }

    /**
     * @param samples how many back-to-back pairs to take, at least 1
     * @return the median cost in nanoseconds, at least 0
     */
    public static long measureNanos(int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be positive, got " + samples);
        }
        for (int i = 0; i < WARMUP; i++) {
            System.nanoTime();
        }
        long[] deltas = new long[samples];
        for (int i = 0; i < samples; i++) {
            long t0 = System.nanoTime();
            long t1 = System.nanoTime();
            deltas[i] = t1 - t0;
        }
        Arrays.sort(deltas);
        return Math.max(0, deltas[samples / 2]);
    }
}
