package io.remus.core.rpc;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/** {@link RpcAllocationFreeTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}), with fewer calls. */
@Tag(DeviceTests.TAG)
class RpcAllocationFreeOnVerbsTest extends RpcAllocationFreeTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: a call through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int warmupIterations() {
        return 6_000;
    }

    @Override
    int measuredIterations() {
        return 2_000;
    }
}
