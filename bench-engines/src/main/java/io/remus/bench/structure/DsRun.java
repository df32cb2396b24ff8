package io.remus.bench.structure;

import io.remus.bench.stats.LatencySummary;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One run of {@code remus bench ds}: the engine's counts and every worker's latency per operation type.
 *
 * @param result  what the engine measured
 * @param latency the latency of each operation type the run issued (merged over every worker)
 * @param all     every operation's latency, whatever its type
 */
public record DsRun(DsBenchmarkResult result, Map<OpType, LatencySummary> latency, LatencySummary all) {
    /** Copies the map. */
    public DsRun {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(all, "all");
        latency = latency.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(latency));
    }
}
