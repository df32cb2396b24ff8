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
 * {@link NameDirectoryTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this process),
 * run in the Soft-RoCE suite, whose responder can tear a READ racing a compare-and-swap.
 */
@Tag(DeviceTests.TAG)
class NameDirectoryOnVerbsTest extends NameDirectoryTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int rounds() {
        return 10;
    }
}
