package io.remus.core.fabric;

import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link FabricContractTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process).
 */
@Tag(DeviceTests.TAG)
class FabricContractOnVerbsTest extends FabricContractTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Not run on verbs: fault injection needs the simulator; io.remus.core.verbs.VerbsFaultTest covers a real dead peer. */
    @Override
    void shouldCompleteWithRetryExceededWhenPeerStopsAnswering(Function<SimOptions, Fabric> make) {
    }
}
