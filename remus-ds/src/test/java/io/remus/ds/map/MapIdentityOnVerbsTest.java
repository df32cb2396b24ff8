package io.remus.ds.map;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;

/**
 * {@link MapIdentityTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three nodes in this process
 * on its one device), run in the Soft-RoCE suite: the same cases, every one of which runs there.
 */
@Tag(DeviceTests.TAG)
class MapIdentityOnVerbsTest extends MapIdentityTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }
}
