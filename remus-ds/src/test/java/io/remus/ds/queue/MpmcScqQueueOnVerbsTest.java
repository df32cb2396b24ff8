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
 * {@link MpmcScqQueueTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all three nodes in this
 * process), run in the Soft-RoCE suite: tickets taken by rxe's fetch-and-add, ring entries marked, published and
 * taken by its compare-and-swap and fetch-and-add while other threads READ them.
 */
@Tag(DeviceTests.TAG)
class MpmcScqQueueOnVerbsTest extends MpmcScqQueueTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int historySeeds() {
        return 3;
    }

    @Override
    int twinSeeds() {
        return 20;
    }

    @Override
    int valuesPerProducer() {
        return 40;
    }
}
