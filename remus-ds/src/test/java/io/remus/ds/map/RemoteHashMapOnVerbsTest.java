package io.remus.ds.map;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link RemoteHashMapHistoriesTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three
 * nodes in this process on one device): 4 threads race on few keys, and their histories check as
 * linearizable key by key. Run in the Soft-RoCE suite; the broken-twin test runs on the simulator only.
 */
@Tag(DeviceTests.TAG)
class RemoteHashMapOnVerbsTest extends RemoteHashMapHistoriesTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /** Fewer: an operation through emulated Soft-RoCE costs about a thousand times more than in the simulator. */
    @Override
    int operationsPerThread() {
        return 40;
    }

    /** Soft-RoCE need not overlap two first inserts of one key in a short run. */
    @Override
    boolean racesForSure() {
        return false;
    }

    /**
     * Longer than one operation through Soft-RoCE (a few round trips of well under a millisecond each),
     * which a lease must be for the operation to finish, and than most of the emulated guest's
     * descheduling pauses.
     */
    @Override
    Duration shortLease() {
        return Duration.ofMillis(100);
    }

    /** Fewer seeds, for the same reason. */
    @Override
    long[] seeds() {
        return new long[] {1, 2};
    }
}
