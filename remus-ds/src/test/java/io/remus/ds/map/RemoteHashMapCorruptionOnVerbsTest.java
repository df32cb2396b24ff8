package io.remus.ds.map;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/** {@link RemoteHashMapCorruptionTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}): the atomic re-read of a suspect slot word goes through the NIC. */
@Tag(DeviceTests.TAG)
class RemoteHashMapCorruptionOnVerbsTest extends RemoteHashMapCorruptionTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }
}
