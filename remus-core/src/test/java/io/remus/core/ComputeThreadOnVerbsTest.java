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
 * {@link ComputeThreadTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process).
 */
@Tag(DeviceTests.TAG)
class ComputeThreadOnVerbsTest extends ComputeThreadTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int fenceIterations() {
        return 500;
    }

    /** Not run on verbs: fault injection needs the simulator; io.remus.core.verbs.VerbsFaultTest covers a real dead peer. */
    @Override
    void shouldThrowRemoteOperationExceptionWhenFaultIsInjected(Function<SimOptions, Fabric> make) {
    }

    /** Not run on verbs: fault injection needs the simulator; io.remus.core.verbs.VerbsFaultTest covers a real dead peer. */
    @Override
    void shouldThrowPeerUnreachableWithinBoundWhenNodeStopsAnswering(Function<SimOptions, Fabric> make) {
    }

    /** Not run on verbs: fault injection needs the simulator; io.remus.core.verbs.VerbsFaultTest covers a real dead peer. */
    @Override
    void shouldThrowRemoteTimeoutWhenOperationTimeoutIsShorterThanTransportTimeout(Function<SimOptions, Fabric> make) {
    }
}
