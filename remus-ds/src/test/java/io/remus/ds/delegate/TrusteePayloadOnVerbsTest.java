package io.remus.ds.delegate;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link TrusteePayloadTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process), run in the Soft-RoCE suite.
 */
@Tag(DeviceTests.TAG)
class TrusteePayloadOnVerbsTest extends TrusteePayloadTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int appliesPerThread() {
        return 30;
    }
}
