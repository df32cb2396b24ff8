package io.remus.ds.object;

import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.Arguments;

import java.util.stream.Stream;

/**
 * {@link WaitFreeContainerBoundTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process), run in the Soft-RoCE suite.
 */
@Tag(DeviceTests.TAG)
class WaitFreeContainerBoundOnVerbsTest extends WaitFreeContainerBoundTest {
    static Stream<Arguments> cases() {
        return cases(Fabrics.verbs());
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int operationsPerThread() {
        return 40;
    }

    /** Soft-RoCE need not overlap two calls in a short run. */
    @Override
    boolean contendsForSure() {
        return false;
    }
}
