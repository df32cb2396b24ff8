package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link RemoteStructTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process), with fewer iterations in the allocation check.
 */
@Tag(DeviceTests.TAG)
class RemoteStructOnVerbsTest extends RemoteStructTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer iterations: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int warmupIterations() {
        return 8_000;
    }

    @Override
    int measuredIterations() {
        return 4_000;
    }
}
