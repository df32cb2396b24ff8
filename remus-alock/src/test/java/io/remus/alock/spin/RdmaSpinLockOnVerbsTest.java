package io.remus.alock.spin;

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
 * {@link RdmaSpinLockTest} (the spin lock's lock contract and its specifics) on the verbs fabric (device
 * {@code REMUS_TEST_DEVICE}, all nodes in this process).
 */
@Tag(DeviceTests.TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RdmaSpinLockOnVerbsTest extends RdmaSpinLockTest {
    @Override
    protected Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }
}
