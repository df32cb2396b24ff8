package io.remus.bench.object;

import io.remus.bench.stats.LatencySummary;

import java.util.Objects;

/**
 * One way under one workload of {@code remus experiment kv}.
 *
 * @param result  what the engine measured (its reads checked)
 * @param reads   every read's latency, all workers together
 * @param updates every update's latency, all workers together
 */
public record KvRun(KvResult result, LatencySummary reads, LatencySummary updates) {
    /** Checks the parts. */
    public KvRun {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(updates, "updates");
    }
}
