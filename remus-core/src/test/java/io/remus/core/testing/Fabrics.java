package io.remus.core.testing;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The parameter sources of the fabric-parameterized tests: each entry makes a fresh fabric from
 * simulator options (a real fabric ignores the options it cannot honour). {@link #all()} is the
 * simulator; {@link #verbs()} the verbs fabric on the device named by {@code REMUS_TEST_DEVICE},
 * which the {@code device}-tagged subclasses ({@code ...OnVerbsTest}) run the same tests with.
 */
public final class Fabrics {
    private Fabrics() {
    }

    /** @return the fabrics under test */
    public static Stream<Named<Function<SimOptions, Fabric>>> all() {
        return Stream.of(Named.of("sim", SimFabric::new));
    }

    /**
     * @param seed picks the boundary's place among the first few KiB of the heap
     * @return the simulator with its segments across a 4 GiB boundary at {@link Straddles#offset}{@code (seed, 3)}
     *         ({@link io.remus.core.sim.SimOptions#straddleOffset()}), for histories on one cluster of 3 nodes: a
     *         pointer READ torn between blocks on either side points outside every segment
     */
    public static Named<Function<SimOptions, Fabric>> straddled(long seed) {
        return Named.of("sim, segments across 4 GiB", options -> new SimFabric(Straddles.across(options, seed, 3)));
    }

    /**
     * @return the verbs fabric on {@code REMUS_TEST_DEVICE}; making it skips the test (with the
     * reason) where no device is configured
     */
    public static Stream<Named<Function<SimOptions, Fabric>>> verbs() {
        return Stream.of(Named.of("verbs", options -> VerbsFabric.open(DeviceTests.deviceName())));
    }
}
