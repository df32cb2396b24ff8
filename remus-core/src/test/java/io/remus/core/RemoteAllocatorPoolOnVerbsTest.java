package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link RemoteAllocatorPoolTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in
 * this process), where the pool heads' compare-and-swaps and the batches' READs and WRITEs cross the
 * device.
 */
@Tag(DeviceTests.TAG)
class RemoteAllocatorPoolOnVerbsTest extends RemoteAllocatorPoolTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }
}
