package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.function.Function;

/**
 * {@code --sim-time}, a picocli mixin for the commands that can run the simulator in virtual time: {@code host}
 * (the default: wall clock) or {@code virtual} (every simulated thread takes turns by virtual clock under the
 * simulator's virtual-time scheduler, whose ties the command's {@code --seed} breaks). A value other than these is
 * refused by picocli's enum conversion, naming the option and the value. The default is the field's value, not a
 * string that picocli converts, so that a command line that matches enum values by case parses without the flag.
 */
public final class SimTimeOption {
    /** The values of {@code --sim-time}. */
    public enum Clock {
        /** The host's wall clock. */
        HOST,
        /** The simulator's virtual time. */
        VIRTUAL
    }

    @Option(names = "--sim-time", paramLabel = "CLOCK",
            description = "Sim fabric: host (wall clock) or virtual (the simulator's virtual-time scheduler: "
                    + "threads take turns by virtual clock, ties broken by --seed; --duration is virtual time; "
                    + "needs a --sim-cost model) (default: host).")
    Clock clock = Clock.HOST;

    /** {@return whether virtual time is asked for} */
    boolean isVirtual() {
        return clock == Clock.VIRTUAL;
    }

    /**
     * @return the given flags that only the simulator honours: {@code --sim-time virtual}, or none
     */
    List<String> simOnly() {
        return isVirtual() ? List.of("--sim-time virtual") : List.of();
    }

    /**
     * @param model the simulator's cost model ({@code --sim-cost})
     * @param seed  the seed of the scheduler's ties ({@code --seed})
     * @param usage the command's usage error for a message
     * @return the clock of the runs
     * @throws ParameterException naming {@code --sim-time virtual} and the model when the model charges nothing
     */
    SimTime simTime(SimCostModel model, long seed, Function<String, ParameterException> usage) {
        if (!isVirtual()) {
            return SimTime.HOST;
        }
        try {
            return SimTime.virtual(model, seed);
        } catch (BadArgumentException e) {
            throw usage.apply("--sim-time virtual: " + e.getMessage() + " (give --sim-cost connectx5)");
        }
    }
}
