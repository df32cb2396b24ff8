package io.remus.alock;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The parameter source of every fabric-parameterized lock test, as in remus-core's tests: each
 * entry makes a fresh fabric from simulator options. The verbs fabric is to be added here.
 */
public final class Fabrics {
    private Fabrics() {
    }

    /** @return the fabrics under test */
    public static Stream<Named<Function<SimOptions, Fabric>>> all() {
        return Stream.of(Named.of("sim", SimFabric::new));
    }
}
