package io.remus.bench.stats;

/**
 * Receives the latency of every operation one benchmark worker completes (a lock, object, data structure or
 * experiment engine's), so that a caller can record exact values into a histogram of its choice (the
 * {@code remus} tool feeds HdrHistogram).
 * Each worker has its own sink and calls it only from its own thread; a sink need not be thread-safe.
 */
@FunctionalInterface
public interface LatencySink {
    /** A sink that drops every sample. */
    LatencySink NONE = nanos -> {
    };

    /**
     * Records one operation.
     *
     * @param nanos how long it took, at least 0
     */
    void record(long nanos);
}
