package io.remus.core.fabric;

import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link MessagingTest} on the shared-memory fabric (all nodes in this process, their memory and
 * receive queues in files of a fresh directory).
 */
class MessagingOnShmTest extends MessagingTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }
}
