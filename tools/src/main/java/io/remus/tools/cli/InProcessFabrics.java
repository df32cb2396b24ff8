package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.core.fabric.Fabric;
import io.remus.bench.perftest.InProcessFabric;

import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The fabric of a bench command that runs every node in this process (bench ds, lock, reclaim, object and
 * rpc-lat without a cluster) as its flags choose it: a fresh one per run ({@link InProcessFabric#fresh}), the
 * simulator or verbs on {@code -d}, default the first device libibverbs lists.
 */
final class InProcessFabrics {
    private InProcessFabrics() {
    }

    /**
     * The fabric of a run with every node in this process, and the report's first notes.
     *
     * @param name    the fabric's name for the report
     * @param fabrics one fresh fabric per run
     * @param notes   the report's notes so far: the fabric and why, the device or the cost model, the host's load
     */
    record Chosen(String name, Supplier<Fabric> fabrics, List<String> notes) {
    }

    /**
     * Picks the fabric by {@link FabricChoice#choose} ({@code -d} asks for verbs, {@code --sim-cost} for sim), checks
     * the output files, says on standard error which fabric runs, and starts the report's notes.
     *
     * @param cmd        the command
     * @param flags      {@code --fabric}, {@code -d} and {@code --sim-cost}
     * @param hostFabric the fabric without {@code --fabric}
     * @param files      the command's output files, checked before anything runs
     * @param usage      the command's usage error for a message
     * @return the fabric and the notes
     * @throws ParameterException     for flags that do not fit the fabric
     * @throws UnwritableFileException naming an output file that cannot be written
     */
    static Chosen choose(CommandLine cmd, BenchFabricOptions flags, Supplier<FabricChoice> hostFabric, OutputFiles files,
                         Function<String, ParameterException> usage)
            throws UnwritableFileException {
        return choose(cmd, flags, hostFabric, files, usage, List.of(), UnaryOperator.identity());
    }

    /**
     * {@link #choose(CommandLine, BenchFabricOptions, Supplier, OutputFiles, Function)} with more flags that only the
     * simulator honours ({@code --sim-time virtual}), and a change to the simulator's options.
     *
     * @param cmd        the command
     * @param flags      {@code --fabric}, {@code -d} and {@code --sim-cost}
     * @param hostFabric the fabric without {@code --fabric}
     * @param files      the command's output files, checked before anything runs
     * @param usage      the command's usage error for a message
     * @param simOnly    more given flags that only the simulator honours, refused with verbs
     * @param simSetup   applied to each fresh simulator's options
     * @return the fabric and the notes
     * @throws ParameterException     for flags that do not fit the fabric
     * @throws UnwritableFileException naming an output file that cannot be written
     */
    static Chosen choose(CommandLine cmd, BenchFabricOptions flags, Supplier<FabricChoice> hostFabric, OutputFiles files,
                         Function<String, ParameterException> usage, List<String> simOnly,
                         UnaryOperator<SimOptions> simSetup)
            throws UnwritableFileException {
        List<String> given = new ArrayList<>(SimFlags.simOnly(0, flags.simCostOption.simCost));
        given.addAll(simOnly);
        FabricChoice choice = FabricOption.choose(cmd, flags.fabricOption.fabric, FabricChoice.given("-d", flags.deviceOption.device),
                given, hostFabric);
        SimCostModel cost = flags.simCostOption.costModel(usage);
        files.check();
        choice.announce(cmd.getErr());
        List<String> notes = new ArrayList<>();
        Supplier<Fabric> fabrics = InProcessFabric.fresh(choice, flags.deviceOption.device, 0, cost, simSetup, notes);
        return new Chosen(choice.name(), fabrics, notes);
    }
}
