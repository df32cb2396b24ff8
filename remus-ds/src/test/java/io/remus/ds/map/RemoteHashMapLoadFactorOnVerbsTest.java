package io.remus.ds.map;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link RemoteHashMapLoadFactorTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the nodes in
 * this process on one device): a table filled with random keys until the first {@link MapFullException}
 * holds at least 85 % of its slots, and its lookups take their round trips through the device's combined
 * bucket READs. Run in the Soft-RoCE suite.
 */
@Tag(DeviceTests.TAG)
class RemoteHashMapLoadFactorOnVerbsTest extends RemoteHashMapLoadFactorTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int[][] runs() {
        return new int[][] {{256, 2}};
    }
}
