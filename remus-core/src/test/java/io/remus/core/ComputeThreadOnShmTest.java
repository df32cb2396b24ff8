package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link ComputeThreadTest} on the shared-memory fabric (all nodes in this process, their memory in
 * files of a fresh directory).
 */
class ComputeThreadOnShmTest extends ComputeThreadTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }

    /** Not run on shm: fault injection needs the simulator. */
    @Override
    void shouldThrowRemoteOperationExceptionWhenFaultIsInjected(Function<SimOptions, Fabric> make) {
    }

    /** Not run on shm: fault injection needs the simulator. */
    @Override
    void shouldThrowPeerUnreachableWithinBoundWhenNodeStopsAnswering(Function<SimOptions, Fabric> make) {
    }

    /** Not run on shm: fault injection needs the simulator. */
    @Override
    void shouldThrowRemoteTimeoutWhenOperationTimeoutIsShorterThanTransportTimeout(Function<SimOptions, Fabric> make) {
    }
}
