package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link PeerAccessTest} on the shared-memory fabric (both nodes in this process, their memory and the memory
 * node's access table in files of a fresh directory).
 */
class PeerAccessOnShmTest extends PeerAccessTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }
}
