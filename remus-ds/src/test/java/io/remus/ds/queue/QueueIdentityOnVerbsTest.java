package io.remus.ds.queue;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link QueueIdentityTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all three nodes in this
 * process), run in the Soft-RoCE suite: the identity word and the root block's header read by rxe in the same
 * READ as the ring's own words, and the root freed by the allocator's compare-and-swap of one block life. The MPMC
 * queues' identity cases run in their own twins ({@link MpmcQueueContractTest}).
 */
@Tag(DeviceTests.TAG)
class QueueIdentityOnVerbsTest extends QueueIdentityTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }
}
