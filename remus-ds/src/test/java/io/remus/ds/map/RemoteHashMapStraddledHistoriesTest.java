package io.remus.ds.map;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link RemoteHashMapHistoriesTest}'s histories on a simulator whose segments cross a 4 GiB boundary among the
 * map's blocks ({@link Fabrics#straddled}): a slot word READ torn between two block pointers points outside every
 * segment, and the map reads it again instead of following it. Fewer seeds: the boundary is crossed early.
 */
class RemoteHashMapStraddledHistoriesTest extends RemoteHashMapHistoriesTest {
    private static final long[] SEEDS = {1, 2, 3};

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Stream.of(Fabrics.straddled(5));
    }

    @Override
    long[] seeds() {
        return SEEDS;
    }
}
