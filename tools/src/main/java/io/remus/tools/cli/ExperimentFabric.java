package io.remus.tools.cli;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.verbs.VerbsFabric;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.FabricKind;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;

import java.util.List;

/** Opens the fabric an experiment runs on: the simulator, or verbs on {@code -d} (default: the first device). */
final class ExperimentFabric {
    private ExperimentFabric() {
    }

    /**
     * @param kind   the fabric
     * @param device the RDMA device, or null for the first one listed (verbs only)
     * @return the open fabric; its nodes all live in this process
     * @throws BenchFailedException when verbs is asked and there is no device
     */
    static Fabric open(FabricKind kind, String device) {
        if (kind == FabricKind.SIM) {
            return new SimFabric();
        }
        String name = device;
        if (name == null) {
            List<DeviceInfo> devices = Device.list();
            if (devices.isEmpty()) {
                throw new BenchFailedException("no RDMA devices on this host: run with --fabric sim");
            }
            name = devices.getFirst().name();
        }
        return VerbsFabric.open(name);
    }
}
