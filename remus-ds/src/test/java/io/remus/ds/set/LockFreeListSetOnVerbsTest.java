package io.remus.ds.set;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;

/**
 * {@link LockFreeListSetTest}'s identity cases on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three nodes in
 * this process on its one device), run in the Soft-RoCE suite, every one of which runs there: the lock-free list's root read,
 * claimed and freed by rxe. The other cases are the simulator's (counted operations, corrupted or poisoned memory,
 * many threads) and run there only.
 */
@Tag(DeviceTests.TAG)
class LockFreeListSetOnVerbsTest extends LockFreeListSetTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldAnswerAsASetWhenHandlesOnSeveralNodesTakeTurns() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldRefuseTheSentinelKeysNamingThemWhenAnyOperationGetsOne() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldRefuseEveryCallWhenTheHandleIsClosed() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldPostNothingWhenContainsRunsOnTheHomeNode() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldKeepEveryThreadsKeysWhenThreadsInsertAndRemoveDisjointKeysAtOnce() throws InterruptedException {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodeLeadsToABlockThatIsNoNode() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodePointsOutsideEverySegment() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldRefuseToAttachWhenThePointerIsNoSuchSet() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldFreeEveryNodeAndTheRootWhenDestroyed() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldReadEachVisitedNodeOnceWhenContainsWalksAnUncontendedList() {
    }

    /** Not run on verbs: a case of the simulator. */
    @Override
    void shouldCostOneRoundTripPerVisitedNodePlusOneOrTwoWhenTheLockFreeListChangesUncontended() {
    }
}
