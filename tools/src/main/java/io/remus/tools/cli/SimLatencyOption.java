package io.remus.tools.cli;

import picocli.CommandLine.Option;

import java.util.List;

/**
 * {@code --sim-latency-ns}, a picocli mixin shared by {@code bench lock} and the perftest-style commands:
 * the latency the simulator adds to every work request. Each command checks the value against its own
 * bounds.
 */
public final class SimLatencyOption {
    @Option(names = "--sim-latency-ns", paramLabel = "NANOS", defaultValue = "0", description = "Sim fabric: injected execution latency per work request (default ${DEFAULT-VALUE}).")
    long simLatencyNanos;

    /**
     * @param simCost the command's {@code --sim-cost}
     * @return the given flags that only the simulator honours, as typed
     */
    List<String> simOnly(SimCostOption simCost) {
        return SimFlags.simOnly(simLatencyNanos, simCost.simCost);
    }
}
