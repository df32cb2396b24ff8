package io.remus.ds.object;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link WaitFreeObjectThrowingStepTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process), run in the Soft-RoCE suite; its frozen-thread case is the simulator's only.
 */
@Tag(DeviceTests.TAG)
class WaitFreeObjectThrowingStepOnVerbsTest extends WaitFreeObjectThrowingStepTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Not run on verbs: it freezes a thread with the simulator's {@code SimFabric.freeze}. */
    @Override
    void shouldKeepEveryOtherHandleWorkingWhileAThrowingCallIsAnnouncedAndFrozen() {
    }
}
