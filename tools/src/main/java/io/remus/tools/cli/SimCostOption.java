package io.remus.tools.cli;

import io.remus.core.sim.SimCostModel;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.Iterator;
import java.util.function.Function;

/**
 * {@code --sim-cost}, a picocli mixin shared by the commands that run on the simulator: the benchmarks
 * ({@code remus bench ...}) run without a cost model unless one is named ({@link #costModel}), the experiments
 * with {@code connectx5} ({@code ExperimentFabricFlags}).
 */
public final class SimCostOption {
    @Option(names = "--sim-cost", paramLabel = "MODEL", completionCandidates = Presets.class, description = "Sim fabric: cost model of the simulated NIC, one of ${COMPLETION-CANDIDATES} (default: none, no cost, for bench; connectx5 for experiment sharing and kv; see SimCostModel). Its times are lower bounds; compare ratios.")
    String simCost;

    /** The names of {@link SimCostModel#PRESETS}, for the option's help and completion. */
    public static final class Presets implements Iterable<String> {
        /** Picocli creates it. */
        public Presets() {
        }

        @Override
        public Iterator<String> iterator() {
            return SimCostModel.PRESETS.stream().map(SimCostModel::name).iterator();
        }
    }

    /**
     * @param usage the command's usage error for a message
     * @return the named preset, {@link SimCostModel#NONE} when not given
     * @throws ParameterException naming {@code --sim-cost} when no preset has the given name
     */
    SimCostModel costModel(Function<String, ParameterException> usage) {
        return SimFlags.costModel(simCost, usage);
    }
}
