package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemoteHashMapHistoriesTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three
 * nodes in this process on one device): 4 threads race on few keys, and their histories check as
 * linearizable key by key, on {@code long} keys and on byte-string keys (the inherited
 * {@code shouldRecordLinearizableHistoriesWhenKeysAreByteStrings}); and a short single-thread case of
 * {@link TypedRemoteHashMap} with String keys checks values and round trips. Run in the Soft-RoCE suite;
 * the broken-twin tests run on the simulator only.
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

    /** String keys and values through the typed map on the device: what comes back, and a lookup's 2 round trips. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnStringValuesWhenKeysAreStringsOnTheDevice(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { }); ComputeThread t = c.thread(0);
             NeverReclaimer r = new NeverReclaimer(t)) {
            TypedRemoteHashMap<String, String> map = TypedRemoteHashMap.create(t, r, 1, 16, 32, 64, Codec.UTF8, Codec.UTF8);
            String[] keys = {"k", "user:1", "user:10", "user:100", "a key longer than sixteen bytes"};
            for (String k : keys) {
                assertTrue(map.put(k, "value of " + k), k);
            }
            for (String k : keys) {
                long before = t.roundTrips();
                assertEquals("value of " + k, map.get(k));
                assertEquals(2, t.roundTrips() - before, "a lookup of " + k);
            }
            assertTrue(map.remove("user:10"));
            assertNull(map.get("user:10"));
            assertEquals("value of user:100", map.get("user:100"));
            map.bytes().destroy();
        }
    }

    /** Fewer seeds, for the same reason. */
    @Override
    long[] seeds() {
        return new long[] {1, 2};
    }
}
