package io.remus.ds.object;

import io.remus.alock.kind.LockKind;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link LockedObjectTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this process), run in
 * the Soft-RoCE suite: the object contract ({@link ObjectContractTest}). Its other cases build their clusters on the
 * simulator (yields inside NIC atomics, segments across a 4 GiB boundary), so they are the simulator's only.
 */
@Tag(DeviceTests.TAG)
class LockedObjectOnVerbsTest extends LockedObjectTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldLoseNoIncrementWhenThreadsOfThreeNodesAdd(LockKind kind) {
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldCheckAStacksHistoryAsLinearizable(LockKind kind) {
    }

    /** Not run on verbs: a simulated cluster whose segments cross a 4 GiB boundary. */
    @Override
    void shouldCheckAStacksHistoryAsLinearizableWhenSegmentsCrossA4GiBBoundary(LockKind kind) {
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldCostTheLockPlusOneReadAndAWriteOnlyWhenTheStateChanges(LockKind kind) {
    }

    /** Not run on verbs: a simulated cluster. */
    @Override
    void shouldRefuseAMisalignedPointerAndAStateLargerThanTheBuffer() {
    }
}
