package io.remus.alock;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link ALockTest} (ALock's lock contract and its specifics) on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process). The hazard test is {@link MixedAtomicsHazardTest} (sim only); on a device,
 * {@link ALockHazardLayoutOnVerbsTest} runs ALock's half in that layout.
 */
@Tag(DeviceTests.TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ALockOnVerbsTest extends ALockTest {
    @Override
    protected Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }
}
