package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slot word with a key's fingerprint that points outside every segment of the home node, stored whole
 * (not a torn READ), is a {@link CorruptedMemoryException} naming the word for every operation on that
 * key, and the map works again once the word is repaired. Torn READs of such words, which are not
 * corruption, are what the hostile-simulator history tests ({@link PrefixKeyHashMapTest},
 * {@link RemoteHashMapHistoriesTest}) race into.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteHashMapCorruptionTest {
    private static final int HOME = 1;
    private static final long KEY = 42;
    private static final long ROOT_TABLE = 16;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReportASlotWordStoredWholeThatPointsOutsideEverySegment(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 64);
            long table = c.raw(map.ptr(), RemoteHashMap.ROOT_BYTES).get(ValueLayout.JAVA_LONG, ROOT_TABLE);
            long bucket = RemotePtr.offset(table, (long) Slot.firstBucket(KEY, 2) * RemoteHashMap.BUCKET_BYTES);
            MemorySegment slot = c.raw(bucket, 8);
            long word = Slot.committed(Slot.fingerprintOf(KEY), 1, RemotePtr.of(HOME, 8));
            slot.set(ValueLayout.JAVA_LONG, 0, word);
            String hex = "0x" + Long.toHexString(word);

            CorruptedMemoryException get = assertThrows(CorruptedMemoryException.class, () -> map.get(KEY));
            assertTrue(get.getMessage().contains(hex), get.getMessage());
            assertThrows(CorruptedMemoryException.class, () -> map.put(KEY, new byte[] {1}));
            assertThrows(CorruptedMemoryException.class, () -> map.remove(KEY));

            slot.set(ValueLayout.JAVA_LONG, 0, 0);
            assertNull(map.get(KEY), "repaired: the key is absent");
            assertTrue(map.put(KEY, new byte[] {2}), "repaired: the key goes in");
            assertArrayEquals(new byte[] {2}, map.get(KEY));
        }
    }
}
