package io.remus.tools.cli;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.InProcessFabric;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The fabric flags of {@code experiment sharing} and {@code experiment kv}: {@code --fabric sim} (the
 * default, with {@code --sim-cost}, default {@code connectx5}) or {@code --fabric verbs} on {@code -d}'s
 * device; either way every node runs in this process, each with its own memory and, on verbs, its own
 * queue pairs to every other node through the device. Its {@code --fabric} is text, not {@link FabricOption}'s
 * enum: these experiments default to sim and refuse another value with their own message.
 */
final class ExperimentFabricFlags {
    /** The cost model the experiments use on the simulator unless {@code --sim-cost} names another. */
    static final String DEFAULT_SIM_COST = "connectx5";

    @Option(names = "--fabric", paramLabel = "FABRIC", defaultValue = "sim",
            description = "sim or verbs (default ${DEFAULT-VALUE}); on verbs every node runs in this process with its "
                    + "own memory and queue pairs on -d's device.")
    String fabric;

    @Mixin
    DeviceOption deviceOption;

    @Mixin
    SimCostOption simCostOption;

    /** The device {@link #fabrics} opens on verbs, once it was called. */
    private String resolvedDevice;

    /**
     * Validates the flags.
     *
     * @param usage the command's usage error for a message
     * @return the fabric
     * @throws ParameterException naming the flag and its value when the fabric is unknown, or when a flag of
     *                            the other fabric is given
     */
    FabricKind kind(Function<String, ParameterException> usage) {
        String f = fabric.strip().toLowerCase(Locale.ROOT);
        FabricKind kind = switch (f) {
            case "sim" -> FabricKind.SIM;
            case "verbs" -> FabricKind.VERBS;
            default -> throw usage.apply("--fabric must be sim or verbs, got '" + fabric + "'");
        };
        if (kind == FabricKind.VERBS && simCostOption.simCost != null) {
            throw usage.apply("--sim-cost " + simCostOption.simCost + " is for --fabric sim only; this run is on verbs");
        }
        if (kind == FabricKind.SIM && deviceOption.device != null) {
            throw usage.apply("-d " + deviceOption.device + " is for --fabric verbs only; this run is on sim");
        }
        if (kind == FabricKind.SIM) {
            costModel(usage);
        }
        return kind;
    }

    /**
     * @param usage the command's usage error for a message
     * @return the simulator's cost model ({@code --sim-cost}, default {@value #DEFAULT_SIM_COST})
     * @throws ParameterException when no preset has the given name
     */
    SimCostModel costModel(Function<String, ParameterException> usage) {
        return SimFlags.costModel(simCostOption.simCost == null ? DEFAULT_SIM_COST : simCostOption.simCost, usage);
    }

    /**
     * @param kind  the validated fabric
     * @param usage the command's usage error for a message
     * @param notes the report's notes, which get one line on the fabric
     * @return a supplier of one fresh fabric per run
     */
    Supplier<Fabric> fabrics(FabricKind kind, Function<String, ParameterException> usage, List<String> notes) {
        if (kind == FabricKind.SIM) {
            SimCostModel cost = costModel(usage);
            notes.add("fabric sim, cost model " + cost.describe()
                    + (cost.isFree() ? " (no cost: the Java data path only)" : "; times are lower bounds, compare ratios"));
            return InProcessFabric.fresh(kind, null, SimOptions.defaults().withCostModel(cost), notes);
        }
        resolvedDevice = deviceOption.device != null ? deviceOption.device : InProcessFabric.firstDevice();
        return InProcessFabric.fresh(kind, resolvedDevice, SimOptions.defaults(), notes);
    }

    /**
     * @param kind  the validated fabric
     * @param usage the command's usage error for a message
     * @return for titles: {@code sim (MODEL)} or {@code verbs (DEVICE)} (after {@link #fabrics})
     */
    String title(FabricKind kind, Function<String, ParameterException> usage) {
        return kind == FabricKind.SIM ? "sim (" + costModel(usage).name() + ")"
                : "verbs (" + resolvedDevice + ")";
    }

    /**
     * @param kind  the validated fabric
     * @param usage the command's usage error for a message
     * @return the cost model's name on sim, null on verbs (for JSON)
     */
    String costName(FabricKind kind, Function<String, ParameterException> usage) {
        return kind == FabricKind.SIM ? costModel(usage).name() : null;
    }
}
