package io.remus.bench.lock;

/**
 * Receives the latency of every lock/unlock pair one {@link LockBenchmark} worker completes, so that
 * a caller can record exact values into a histogram of its choice (the {@code remus} tool feeds
 * HdrHistogram). Each worker has its own sink and calls it only from its own thread; a sink need not
 * be thread-safe.
 */
@FunctionalInterface
public interface LatencySink {
    /** A sink that drops every sample. */
    LatencySink NONE = nanos -> {
    };

    /**
     * Records one lock/unlock pair.
     *
     * @param nanos how long the pair took, at least 0
     */
    void record(long nanos);
}
