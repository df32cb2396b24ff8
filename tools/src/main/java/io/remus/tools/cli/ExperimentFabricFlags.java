package io.remus.tools.cli;

import io.remus.bench.perftest.ExperimentFabric;
import io.remus.core.error.BadArgumentException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.function.Function;

/**
 * The fabric flags of {@code experiment sharing} and {@code experiment kv} ({@link ExperimentFabric}):
 * {@code --fabric sim} (the default, with {@code --sim-cost}, default {@value ExperimentFabric#DEFAULT_SIM_COST})
 * or {@code --fabric verbs} on {@code -d}'s device. Its {@code --fabric} is text, not {@link FabricOption}'s
 * enum: these experiments default to sim and refuse another value with their own message.
 */
final class ExperimentFabricFlags {
    @Option(names = "--fabric", paramLabel = "FABRIC", defaultValue = "sim",
            description = "sim or verbs (default ${DEFAULT-VALUE}); on verbs every node runs in this process with its "
                    + "own memory and queue pairs on -d's device.")
    String fabric;

    @Mixin
    DeviceOption deviceOption;

    @Mixin
    SimCostOption simCostOption;

    /**
     * Validates the flags.
     *
     * @param usage the command's usage error for a message
     * @return the fabric
     * @throws ParameterException naming the flag and its value when the fabric or the cost model is unknown, or
     *                            when a flag of the other fabric is given
     */
    ExperimentFabric fabric(Function<String, ParameterException> usage) {
        try {
            return ExperimentFabric.of(fabric, deviceOption.device, simCostOption.simCost);
        } catch (BadArgumentException e) {
            throw usage.apply(e.getMessage());
        }
    }
}
