package io.remus.tools.cli;

import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The simulator-only flags that {@code bench lock} and the perftest-style commands share. */
final class SimFlags {
    private SimFlags() {
    }

    /**
     * @param simCost {@code --sim-cost}'s value, or null when not given
     * @param usage   the command's usage error for a message
     * @return the named preset, {@link SimCostModel#NONE} when not given
     * @throws ParameterException when no preset has the given name
     */
    static SimCostModel costModel(String simCost, Function<String, ParameterException> usage) {
        if (simCost == null) {
            return SimCostModel.NONE;
        }
        try {
            return SimCostModel.byName(simCost);
        } catch (BadArgumentException e) {
            throw usage.apply("--sim-cost: " + e.getMessage());
        }
    }

    /**
     * @param simLatencyNanos {@code --sim-latency-ns}'s value
     * @param simCost         {@code --sim-cost}'s value, or null
     * @return the given flags that only the simulator honours, as typed
     */
    static List<String> simOnly(long simLatencyNanos, String simCost) {
        List<String> simOnly = new ArrayList<>();
        if (simLatencyNanos > 0) {
            simOnly.add("--sim-latency-ns " + simLatencyNanos);
        }
        if (simCost != null) {
            simOnly.add("--sim-cost " + simCost);
        }
        return simOnly;
    }
}
