package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The fabric of {@code experiment sharing} and {@code experiment kv}: the simulator (the default, with a cost model,
 * default {@value #DEFAULT_SIM_COST}) or verbs on a device; either way every node runs in this process, each with
 * its own memory and, on verbs, its own queue pairs to every other node through the device.
 */
public final class ExperimentFabric {
    /** The cost model the experiments use on the simulator unless {@code --sim-cost} names another. */
    public static final String DEFAULT_SIM_COST = "connectx5";

    private final FabricKind kind;
    private final String device;
    private final SimCostModel cost;
    private String openedDevice;

    private ExperimentFabric(FabricKind kind, String device, SimCostModel cost) {
        this.kind = kind;
        this.device = device;
        this.cost = cost;
    }

    /**
     * Validates the flags.
     *
     * @param fabric  {@code --fabric}: sim or verbs, in any case
     * @param device  {@code -d}, or null
     * @param simCost {@code --sim-cost}, or null for {@value #DEFAULT_SIM_COST}
     * @return the fabric
     * @throws BadArgumentException naming the flag and its value when the fabric or the cost model is unknown, or
     *                              when a flag of the other fabric is given
     */
    public static ExperimentFabric of(String fabric, String device, String simCost) {
        FabricKind kind = switch (fabric.strip().toLowerCase(Locale.ROOT)) {
            case "sim" -> FabricKind.SIM;
            case "verbs" -> FabricKind.VERBS;
            default -> throw new BadArgumentException("--fabric must be sim or verbs, got '" + fabric + "'");
        };
        if (kind == FabricKind.VERBS && simCost != null) {
            throw new BadArgumentException("--sim-cost " + simCost + " is for --fabric sim only; this run is on verbs");
        }
        if (kind == FabricKind.SIM && device != null) {
            throw new BadArgumentException("-d " + device + " is for --fabric verbs only; this run is on sim");
        }
        SimCostModel cost = null;
        if (kind == FabricKind.SIM) {
            try {
                cost = SimCostModel.byName(simCost == null ? DEFAULT_SIM_COST : simCost);
            } catch (BadArgumentException e) {
                throw new BadArgumentException("--sim-cost: " + e.getMessage());
            }
        }
        return new ExperimentFabric(kind, device, cost);
    }

    /** @return the fabric */
    public FabricKind kind() {
        return kind;
    }

    /**
     * @param notes the report's notes, which get one line on the fabric
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException on verbs without {@code -d} when the host has no RDMA device
     */
    public Supplier<Fabric> fabrics(List<String> notes) {
        return fabrics(notes, UnaryOperator.identity());
    }

    /**
     * As {@link #fabrics(List)}, the simulator's options adjusted by {@code simSetup} (e.g. simulated addresses for a
     * virtual-time run).
     *
     * @param notes    the report's notes, which get one line on the fabric
     * @param simSetup adjusts the simulator's options (sim only)
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException on verbs without {@code -d} when the host has no RDMA device
     */
    public Supplier<Fabric> fabrics(List<String> notes, UnaryOperator<SimOptions> simSetup) {
        if (kind == FabricKind.SIM) {
            notes.add("fabric sim, cost model " + cost.describe()
                    + (cost.isFree() ? " (no cost: the Java data path only)" : "; times are lower bounds, compare ratios"));
            return InProcessFabric.fresh(kind, null, simSetup.apply(SimOptions.defaults().withCostModel(cost)), notes);
        }
        openedDevice = device != null ? device : InProcessFabric.firstDevice();
        return InProcessFabric.fresh(kind, openedDevice, SimOptions.defaults(), notes);
    }

    /** @return for titles: {@code sim (MODEL)} or {@code verbs (DEVICE)} (after {@link #fabrics}) */
    public String title() {
        return kind == FabricKind.SIM ? "sim (" + cost.name() + ")" : "verbs (" + openedDevice + ")";
    }

    /** @return the simulator's cost model, null on verbs */
    public SimCostModel costModel() {
        return cost;
    }

    /** @return the cost model's name on sim, null on verbs (for JSON) */
    public String costName() {
        return kind == FabricKind.SIM ? cost.name() : null;
    }
}
