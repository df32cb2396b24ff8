package io.remus.bench.perftest;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;

import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The fabric of a run with every node in this process: the simulator, or verbs on a named RDMA device,
 * default the first device libibverbs lists. Opening a verbs fabric opens the device and its nodes' memory
 * and queue pairs there; the simulator needs no device.
 */
public final class InProcessFabric {
    private InProcessFabric() {
    }

    /**
     * A fresh fabric per run.
     *
     * @param kind   the fabric
     * @param device the RDMA device for verbs, or null for the first one listed
     * @param sim    the simulator's options (sim only)
     * @param notes  the report's notes, which get the device's name (verbs only)
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException when verbs is asked and the host has no RDMA device
     */
    public static Supplier<Fabric> fresh(FabricKind kind, String device, SimOptions sim, List<String> notes) {
        if (kind == FabricKind.VERBS) {
            String name = device != null ? device : firstDevice();
            notes.add("device " + name + ", every node in this process (VerbsFabric.open)");
            return () -> VerbsFabric.open(name);
        }
        return () -> new SimFabric(sim);
    }

    /**
     * A fresh fabric per run of a chosen fabric, and the report's notes on it, in this order: the fabric and why;
     * on the simulator the injected latency and the cost model, when there are some; on verbs the device; the
     * host's load.
     *
     * @param choice          the fabric and why
     * @param device          the RDMA device for verbs, or null for the first one listed
     * @param simLatencyNanos the simulator's injected execution latency per work request (sim only)
     * @param cost            the simulator's cost model (sim only)
     * @param notes           the report's notes, which get the lines above
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException when verbs is asked and the host has no RDMA device
     */
    public static Supplier<Fabric> fresh(FabricChoice choice, String device, long simLatencyNanos, SimCostModel cost,
                                         List<String> notes) {
        return fresh(choice, device, simLatencyNanos, cost, UnaryOperator.identity(), notes);
    }

    /**
     * As {@link #fresh(FabricChoice, String, long, SimCostModel, List)}, the simulator's options adjusted by
     * {@code simSetup} (e.g. simulated addresses for a virtual-time run).
     *
     * @param choice          the fabric and why
     * @param device          the RDMA device for verbs, or null for the first one listed
     * @param simLatencyNanos the simulator's injected execution latency per work request (sim only)
     * @param cost            the simulator's cost model (sim only)
     * @param simSetup        adjusts the simulator's options built from the above (sim only)
     * @param notes           the report's notes
     * @return a supplier of one fresh fabric per run
     * @throws BenchFailedException when verbs is asked and the host has no RDMA device
     */
    public static Supplier<Fabric> fresh(FabricChoice choice, String device, long simLatencyNanos, SimCostModel cost,
                                         UnaryOperator<SimOptions> simSetup, List<String> notes) {
        notes.add("fabric " + choice.name() + " (" + choice.reason() + ")");
        if (choice.kind() == FabricKind.SIM && simLatencyNanos > 0) {
            notes.add("sim execution latency injected: " + simLatencyNanos + " ns per work request");
        }
        if (choice.kind() == FabricKind.SIM && !cost.isFree()) {
            notes.add("sim cost model " + cost.describe() + " (times are lower bounds)");
        }
        Supplier<Fabric> fabrics = fresh(choice.kind(), device,
                simSetup.apply(SimOptions.defaults().withExecutionLatencyNanos(simLatencyNanos).withCostModel(cost)), notes);
        notes.add(ClusterJoin.hostLoad());
        return fabrics;
    }

    /**
     * One open fabric, the simulator with its default options or verbs.
     *
     * @param kind   the fabric
     * @param device the RDMA device, or null for the first one listed (verbs only)
     * @return the open fabric; its nodes all live in this process
     * @throws BenchFailedException when verbs is asked and there is no device
     */
    public static Fabric open(FabricKind kind, String device) {
        if (kind == FabricKind.SIM) {
            return new SimFabric();
        }
        return VerbsFabric.open(device != null ? device
                : firstDevice("no RDMA devices on this host: run with --fabric sim"));
    }

    /**
     * @return the first device libibverbs lists
     * @throws BenchFailedException when the host has none
     */
    public static String firstDevice() {
        return firstDevice("--fabric verbs: this host has no RDMA devices (see softroce/README.md "
                + "for Soft-RoCE in a guest); run with --fabric sim");
    }

    private static String firstDevice(String none) {
        List<DeviceInfo> devices = Device.list();
        if (devices.isEmpty()) {
            throw new BenchFailedException(none);
        }
        return devices.getFirst().name();
    }
}
