package io.remus.ds.delegate;

import io.remus.core.config.NodeRange;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

/**
 * {@link DelegatedHistoriesTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process), run in the Soft-RoCE suite: fewer seeds and operations, since an operation through emulated
 * Soft-RoCE costs about a thousand times more than in the simulator.
 */
@Tag(DeviceTests.TAG)
class DelegatedHistoriesOnVerbsTest extends DelegatedHistoriesTest {
    @Override
    TestCluster cluster(boolean bare) {
        return new TestCluster(Fabrics.verbs().findFirst().orElseThrow().getPayload(), SimOptions.defaults(), 3,
                b -> b.segmentSize(4 << 20).memoryNodes(new NodeRange(0, bare ? 1 : 2)));
    }

    @Override
    long[] seeds() {
        return new long[] {1, 2, 3};
    }

    @Override
    int opsPerThread() {
        return 30;
    }
}
