package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.Locale;
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
     * An output flag of a command whose figures do not say which clock timed them ({@code --csv}'s rows,
     * {@code --metrics}' metrics.txt), refused with {@code --sim-time virtual}.
     *
     * @param flag  the flag, e.g. {@code "--csv"}
     * @param value its value as given, or null when it is not given
     * @param what  what it writes, for the message: {@code "its rows"}, {@code "Remus' metrics.txt"}
     */
    record Untimed(String flag, Object value, String what) {
    }

    /**
     * The refusals of {@code --sim-time virtual}, before anything runs, and the runs' clock. Virtual time runs every
     * node in this process on the simulator, under a cost model that charges time, and its figures go only where they
     * say how they were timed. Refused, in this order, each naming the value it cannot run with:
     * one process per node; a {@code --fabric} other than sim; a cost model that charges nothing
     * ({@link SimCostModel#isFree()}); an output flag of {@code untimed} that is given.
     *
     * @param onePerNode whether this process is one node of a cluster of processes
     * @param fabric     {@code --fabric} as given, or null when not given (the simulator is then chosen, as
     *                   {@link #simOnly()} asks for it); not read in one process per node
     * @param model      the simulator's cost model ({@code --sim-cost}); not read in one process per node
     * @param seed       the seed of the scheduler's ties ({@code --seed})
     * @param untimed    the command's output flags whose figures do not say which clock timed them
     * @param usage      the command's usage error for a message
     * @return the clock of the runs: {@link SimTime#HOST} without {@code --sim-time virtual}
     * @throws ParameterException naming {@code --sim-time virtual} and the value it cannot run with
     */
    SimTime clock(boolean onePerNode, String fabric, SimCostModel model, long seed, List<Untimed> untimed,
                  Function<String, ParameterException> usage) {
        if (!isVirtual()) {
            return SimTime.HOST;
        }
        if (onePerNode) {
            throw usage.apply("--sim-time virtual runs every node in this process; not with one process per node");
        }
        if (fabric != null && !fabric.equalsIgnoreCase("sim")) {
            throw usage.apply("--sim-time virtual runs the simulator's threads in virtual time; not with --fabric "
                    + fabric.toLowerCase(Locale.ROOT));
        }
        SimTime time;
        try {
            time = SimTime.virtual(model, seed);
        } catch (BadArgumentException e) {
            throw usage.apply("--sim-time virtual: " + e.getMessage() + " (give --sim-cost connectx5)");
        }
        for (Untimed u : untimed) {
            if (u.value() != null) {
                throw usage.apply("--sim-time virtual: not with " + u.flag() + " " + u.value() + ": " + u.what()
                        + " would not say which clock timed the figures; use --json");
            }
        }
        return time;
    }

    /**
     * @param kind {@code --fabric}'s value, or null when not given
     * @return its name as a flag value ({@code "verbs"}), or null
     */
    static String given(FabricKind kind) {
        return kind == null ? null : kind.name().toLowerCase(Locale.ROOT);
    }
}
