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
 * {@link WaitFreeStackTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this process), run in the
 * Soft-RoCE suite: the object contract ({@link ObjectContractTest}). Its other cases build their clusters on the
 * simulator (hostile options, a chosen execution latency), so they are the simulator's only.
 */
@Tag(DeviceTests.TAG)
class WaitFreeStackOnVerbsTest extends WaitFreeStackTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Not run on verbs: a simulated cluster whose segments cross a 4 GiB boundary. */
    @Override
    void shouldCheckAsLinearizableWhenTheHomeSegmentCrossesA4GiBBoundary(long seed) {
    }

    /** Not run on verbs: a simulated cluster with torn transfers. */
    @Override
    void shouldCheckAsLinearizableAndApplyEveryOperationOnceOverManySeeds() {
    }

    /** Not run on verbs: a simulated cluster with torn transfers. */
    @Override
    void shouldBeCaughtByTheCheckerWhenHelpersApplyOperationsWithoutSequenceNumbers() {
    }

    /** Not run on verbs: a simulated cluster with a chosen execution latency. */
    @Override
    void shouldExceedTheBoundWithoutHelping() {
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldRefuseBadArgumentsAndAHandleBeyondTheCapacity() {
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldPopInLifoOrderAndReportFullAndEmptyAcrossHandles() {
    }
}
