package io.remus.bench.lock;

import io.remus.bench.stats.LatencySummary;

/**
 * One measured point of the lock benchmark.
 *
 * @param fabric          the fabric's name ({@code sim} or {@code verbs})
 * @param config          what ran
 * @param operations      completed lock/unlock pairs
 * @param localOperations of those, on locks homed on the worker's own node
 * @param seconds         time of the measured phase: wall clock, or virtual time in a virtual-time run
 *                        ({@link LockReport#time()})
 * @param latency         lock+unlock latency in nanoseconds, from every pair (HdrHistogram)
 */
public record LockRun(String fabric, LockBenchmarkConfig config, long operations, long localOperations,
                      double seconds, LatencySummary latency) {
    /** @return lock/unlock pairs per second */
    public double throughput() {
        return seconds == 0 ? 0 : operations / seconds;
    }

    /** @return the fraction of pairs on local locks, 0..1 (0 when none ran) */
    public double localFraction() {
        return operations == 0 ? 0 : (double) localOperations / operations;
    }
}
