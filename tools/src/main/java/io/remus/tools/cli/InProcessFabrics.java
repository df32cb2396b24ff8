package io.remus.tools.cli;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.FabricKind;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;

import io.remus.core.sim.SimCostModel;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The fabric of a bench command that runs every node in this process (bench ds, lock, reclaim, object and
 * rpc-lat without a cluster): a fresh one per run, the simulator or verbs on {@code -d}, default the first
 * device libibverbs lists.
 */
final class InProcessFabrics {
    private InProcessFabrics() {
    }

    /**
     * @param kind    the fabric
     * @param device  the RDMA device for verbs, or null for the first one listed
     * @param sim     the simulator's options (sim only)
     * @param notes   the report's notes, which get the device's name (verbs only)
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException when verbs is asked and the host has no RDMA device
     */
    static Supplier<Fabric> of(FabricKind kind, String device, SimOptions sim, List<String> notes) {
        if (kind == FabricKind.VERBS) {
            String name = device != null ? device : firstDevice();
            notes.add("device " + name + ", every node in this process (VerbsFabric.open)");
            return () -> VerbsFabric.open(name);
        }
        return () -> new SimFabric(sim);
    }

    /**
     * @return the first device libibverbs lists
     * @throws BenchFailedException when the host has none
     */
    static String firstDevice() {
        List<DeviceInfo> devices = Device.list();
        if (devices.isEmpty()) {
            throw new BenchFailedException("--fabric verbs: this host has no RDMA devices (see softroce/README.md "
                    + "for Soft-RoCE in a guest); run with --fabric sim");
        }
        return devices.getFirst().name();
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
        FabricChoice choice = FabricChoice.choose(cmd, flags.fabricOption.fabric, FabricChoice.given("-d", flags.deviceOption.device),
                SimFlags.simOnly(0, flags.simCostOption.simCost), hostFabric);
        SimCostModel cost = flags.simCostOption.costModel(usage);
        files.check();
        choice.announce(cmd.getErr());
        List<String> notes = new ArrayList<>();
        notes.add("fabric " + choice.name() + " (" + choice.reason() + ")");
        Supplier<Fabric> fabrics = of(choice.kind(), flags.deviceOption.device, SimOptions.defaults().withCostModel(cost), notes);
        if (choice.kind() == FabricKind.SIM && !cost.isFree()) {
            notes.add("sim cost model " + cost.describe() + " (times are lower bounds)");
        }
        notes.add(ClusterOptions.hostLoad());
        return new Chosen(choice.name(), fabrics, notes);
    }
}
