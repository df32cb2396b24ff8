package io.remus.tools.cli;

import io.remus.core.sim.SimCostModel;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.function.Function;

/**
 * {@code --sim-cost}, a picocli mixin shared by the benchmarks whose simulator runs without a cost model
 * unless one is named ({@code remus bench ...}); the experiments, whose default is another, declare their
 * own.
 */
public final class SimCostOption {
    @Option(names = "--sim-cost", paramLabel = "MODEL", description = "Sim fabric: cost model of the simulated NIC, none or connectx5 (default none: no cost; see SimCostModel). Its times are lower bounds; compare ratios.")
    String simCost;

    /**
     * @param usage the command's usage error for a message
     * @return the named preset, {@link SimCostModel#NONE} when not given
     * @throws ParameterException naming {@code --sim-cost} when no preset has the given name
     */
    SimCostModel costModel(Function<String, ParameterException> usage) {
        return SimFlags.costModel(simCost, usage);
    }
}
