package io.remus.tools.cli;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.FabricKind;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;

import java.util.List;
import java.util.function.Supplier;

/**
 * The fabric of a bench command that runs every node in this process (bench lock, reclaim and object
 * without a cluster): a fresh one per run, the simulator or verbs on {@code -d}, default the first
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
}
