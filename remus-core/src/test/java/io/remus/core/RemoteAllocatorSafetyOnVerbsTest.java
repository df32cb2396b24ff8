package io.remus.core;

import io.remus.core.error.DoubleFreeException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link RemoteAllocatorSafetyTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes
 * in this process), where the header's READ and compare-and-swap cross the device.
 */
@Tag(DeviceTests.TAG)
class RemoteAllocatorSafetyOnVerbsTest extends RemoteAllocatorSafetyTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    @DeviceTest
    void shouldThrowDoubleFreeWhenABlockIsFreedTwiceOverVerbs() {
        var verbs = Fabrics.verbs().findFirst().orElseThrow().getPayload();
        try (TestCluster c = new TestCluster(verbs, SimOptions.defaults(), 2, b -> { });
             ComputeThread t = c.thread(0)) {
            RemoteAllocator a = new RemoteAllocator(t);
            long p = a.allocate(64, 1);
            a.deallocate(p, 64);
            DoubleFreeException e = assertThrows(DoubleFreeException.class, () -> a.deallocate(p, 64));
            assertEquals(p, e.pointer());
            assertEquals(p, a.allocate(64, 1), "the block was freed once");
        }
    }
}
