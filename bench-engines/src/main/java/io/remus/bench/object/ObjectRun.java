package io.remus.bench.object;

import io.remus.bench.stats.LatencySummary;

import java.util.Objects;

/**
 * One run of {@code remus bench object}: the engine's counts and the live workers' latency.
 *
 * @param result  what the engine measured
 * @param latency every live worker's operation latency, merged (the stalled worker's are not recorded)
 */
public record ObjectRun(ObjectBenchmarkResult result, LatencySummary latency) {
    /** Checks the components. */
    public ObjectRun {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(latency, "latency");
    }

    /** @return {@code object/impl}, with {@code +stall} when a worker stalled */
    public String label() {
        return result.config().object().flagName() + "/" + result.config().impl().flagName() + stallSuffix();
    }

    /** @return {@code object}, with {@code +stall} when a worker stalled: the group of a bar chart */
    public String group() {
        return result.config().object().flagName() + stallSuffix();
    }

    private String stallSuffix() {
        return result.config().stall() ? "+stall" : "";
    }
}
