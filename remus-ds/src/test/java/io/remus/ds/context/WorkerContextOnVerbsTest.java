package io.remus.ds.context;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;

/**
 * {@link WorkerContextTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the two nodes in this process on
 * its one device), run in the Soft-RoCE suite: the reclaimer's slot claim, last passes and slot release, and a lock
 * through the worker's lock context, over real RDMA.
 */
@Tag(DeviceTests.TAG)
class WorkerContextOnVerbsTest extends WorkerContextTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }
}
