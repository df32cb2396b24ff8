package io.remus.core.fabric;

import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link FabricContractTest} on the shared-memory fabric (all nodes in this process, their memory in
 * files of a fresh directory). The fault-injection case skips itself: it needs the simulator.
 */
class FabricContractOnShmTest extends FabricContractTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }
}
