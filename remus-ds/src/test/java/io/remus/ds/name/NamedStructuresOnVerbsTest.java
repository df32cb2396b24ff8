package io.remus.ds.name;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;

/**
 * {@link NamedStructuresTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three nodes in this process
 * on its one device), run in the Soft-RoCE suite: the same cases, every one of which runs there.
 */
@Tag(DeviceTests.TAG)
class NamedStructuresOnVerbsTest extends NamedStructuresTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int rounds() {
        return 5;
    }
}
