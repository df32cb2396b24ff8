package io.remus.bench.object;

import io.remus.bench.stats.LatencySummary;

import java.util.Objects;

/**
 * One way of {@code remus experiment sharing} at one thread count.
 *
 * @param threadsPerNode the workers per node of the run
 * @param result         what the engine measured (its counters checked exact)
 * @param latency        every increment's latency, all workers together
 */
public record SharingRun(int threadsPerNode, SharingResult result, LatencySummary latency) {
    /** Checks the parts. */
    public SharingRun {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(latency, "latency");
    }
}
