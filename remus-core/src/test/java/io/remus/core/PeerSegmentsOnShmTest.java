package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link PeerSegmentsTest} on the shared-memory fabric: the compute node's process reads the memory node's
 * publications from its {@code published} file (two fabrics on one directory, as two processes).
 */
class PeerSegmentsOnShmTest extends PeerSegmentsTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }

    @Override
    Fabric peerView(Fabric home) {
        return ShmFabric.open(((ShmFabric) home).directory());
    }
}
