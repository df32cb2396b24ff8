package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;


/**
 * What {@link LockBenchmark} measured.
 *
 * @param kind             the lock kind
 * @param operations       completed lock/unlock pairs
 * @param localOperations  of those, on locks on the worker's own node
 * @param elapsedNanos     wall time of the measured phase
 * @param latencyLog2Nanos histogram of lock+unlock latency: entry {@code i} counts pairs that took
 *                         {@code [2^(i-1), 2^i)} nanoseconds (entry 0: under 1 ns)
 * @param busiestLockWorkers when the measured phase ended, the most workers inside a lock/unlock pair of one key
 *                           (0 when not recorded)
 * @param busiestLockKey   that key (the lowest of those with that many), or -1 when not recorded
 */
public record LockBenchmarkResult(LockKind kind, long operations, long localOperations, long elapsedNanos,
                                  long[] latencyLog2Nanos, int busiestLockWorkers, long busiestLockKey) {
    /**
     * A result without the end-of-run count of workers per lock.
     *
     * @param kind             the lock kind
     * @param operations       completed lock/unlock pairs
     * @param localOperations  of those, on locks on the worker's own node
     * @param elapsedNanos     wall time of the measured phase
     * @param latencyLog2Nanos histogram of lock+unlock latency, as the canonical constructor
     */
    public LockBenchmarkResult(LockKind kind, long operations, long localOperations, long elapsedNanos,
                               long[] latencyLog2Nanos) {
        this(kind, operations, localOperations, elapsedNanos, latencyLog2Nanos, 0, -1);
    }

    /** {@return lock/unlock pairs per second} */
    public double throughputPerSecond() {
        return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
    }

    /**
     * @param quantile 0..1
     * @return an upper bound, within a factor of 2, of that latency quantile in nanoseconds (0 when no operation ran)
     */
    public long latencyUpperBoundNanos(double quantile) {
        long total = 0;
        for (long c : latencyLog2Nanos) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < latencyLog2Nanos.length; i++) {
            seen += latencyLog2Nanos[i];
            if (seen >= Math.max(1, rank)) {
                return i == 0 ? 1 : i >= 63 ? Long.MAX_VALUE : 1L << i;
            }
        }
        return Long.MAX_VALUE;
    }
}
