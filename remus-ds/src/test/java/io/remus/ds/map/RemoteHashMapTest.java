package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RemoteHashMap}: what it stores and returns, its typed errors, and its RDMA operations per call. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteHashMapTest {
    private static final int HOME = 1;
    private static final int MAX_VALUE = 4000;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        for (int i = 0; i < size; i++) {
            v[i] = (byte) (seed * 31 + i);
        }
        return v;
    }

    @Test
    void shouldReturnWhatWasPutWhenValuesHaveSeveralSizes() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 64, MAX_VALUE);
            int[] sizes = {0, 1, 7, 8, 47, 48, 49, 100, 1000, MAX_VALUE};
            for (int i = 0; i < sizes.length; i++) {
                assertTrue(map.put(i * 1_000_003L, value(sizes[i], i)), "a new key is inserted");
            }
            for (int i = 0; i < sizes.length; i++) {
                assertArrayEquals(value(sizes[i], i), map.get(i * 1_000_003L), "value of " + sizes[i] + " bytes");
                MemorySegment into = MemorySegment.ofArray(new byte[MAX_VALUE]);
                assertEquals(sizes[i], map.get(i * 1_000_003L, into));
                assertArrayEquals(value(sizes[i], i), Arrays.copyOf(into.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), sizes[i]));
            }
            assertNull(map.get(42));
            assertEquals(-1, map.get(42, MemorySegment.ofArray(new byte[8])));
            assertFalse(map.containsKey(42));
        }
    }

    @Test
    void shouldReplaceAndRemoveWhenTheKeyIsPresent() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 16, 256);
            assertTrue(map.put(-7, value(10, 1)));
            assertFalse(map.put(-7, value(200, 2)), "a present key's value is replaced");
            assertArrayEquals(value(200, 2), map.get(-7));
            assertFalse(map.put(-7, value(3, 3)));
            assertArrayEquals(value(3, 3), map.get(-7));
            assertEquals(64 + 256L, r.retiredBytes(), "both replaced blocks (one 64-byte unit and 4 units) were retired");
            assertTrue(map.remove(-7));
            assertFalse(map.remove(-7), "a second remove finds nothing");
            assertNull(map.get(-7));
            assertTrue(map.put(-7, value(5, 4)), "a removed key is inserted again");
            assertArrayEquals(value(5, 4), map.get(-7));
            int cached = t.allocator().cachedBlockCount();
            map.destroy();
            assertEquals(cached + 3, t.allocator().cachedBlockCount(), "destroy freed the value block, the table and the root");
            assertThrows(BadArgumentException.class, () -> map.get(-7), "a destroyed map's handle is closed");
        }
    }

    @Test
    void shouldSeeOneMapFromHandlesOnOtherNodes() {
        try (TestCluster c = cluster(); ComputeThread a = c.thread(0); NeverReclaimer ra = new NeverReclaimer(a);
             ComputeThread b = c.thread(2); NeverReclaimer rb = new NeverReclaimer(b);
             ComputeThread h = c.thread(HOME); NeverReclaimer rh = new NeverReclaimer(h)) {
            RemoteHashMap first = RemoteHashMap.create(a, ra, HOME, 32, 64);
            RemoteHashMap second = RemoteHashMap.attach(b, rb, first.ptr());
            RemoteHashMap local = RemoteHashMap.attach(h, rh, first.ptr());
            assertEquals(64, second.maxValueBytes());
            assertEquals(32 * RemoteHashMap.SLOTS_PER_BUCKET, second.capacity());
            for (long k = 0; k < 50; k++) {
                assertTrue((k % 2 == 0 ? first : second).put(k, value(8, (int) k)));
            }
            for (long k = 0; k < 50; k++) {
                assertArrayEquals(value(8, (int) k), local.get(k), "key " + k + " on the home node's CPU path");
                assertTrue(second.remove(k));
                assertNull(first.get(k));
            }
        }
    }

    @Test
    void shouldThrowMapFullExceptionWhenBothBucketsOfTheKeyAreFull() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 16);
            for (long k = 0; k < 16; k++) {
                assertTrue(map.put(k, value(4, (int) k)));
            }
            MapFullException full = assertThrows(MapFullException.class, () -> map.put(99, value(4, 0)));
            assertEquals(99, full.key());
            assertTrue(full.getMessage().contains("99"), full.getMessage());
            assertFalse(map.put(3, value(9, 9)), "a present key is still replaced in a full table");
            assertArrayEquals(value(9, 9), map.get(3));
            assertTrue(map.remove(5));
            assertTrue(map.put(99, value(4, 0)), "a freed slot takes a new key");
        }
    }

    @Test
    void shouldRefuseBadInputWithTypedErrorsNamingTheValue() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            assertThrows(NullPointerException.class, () -> RemoteHashMap.create(null, r, HOME, 4, 8));
            assertThrows(NullPointerException.class, () -> RemoteHashMap.create(t, null, HOME, 4, 8));
            assertMessage(assertThrows(BadArgumentException.class, () -> RemoteHashMap.create(t, r, HOME, 1, 8)), "got 1");
            assertMessage(assertThrows(BadArgumentException.class,
                    () -> RemoteHashMap.create(t, r, HOME, RemoteHashMap.MAX_BUCKETS + 1, 8)), "got " + (RemoteHashMap.MAX_BUCKETS + 1));
            assertMessage(assertThrows(BadArgumentException.class, () -> RemoteHashMap.create(t, r, HOME, 4, -1)), "got -1");
            assertMessage(assertThrows(BadArgumentException.class, () -> RemoteHashMap.create(t, r, HOME, 4, 8000)), "got 8000");
            assertMessage(assertThrows(BadArgumentException.class, () -> RemoteHashMap.attach(t, r, RemotePtr.NULL)), "null");
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 4, 100);
            assertThrows(NullPointerException.class, () -> map.put(1, (byte[]) null));
            assertThrows(NullPointerException.class, () -> map.put(1, (MemorySegment) null));
            assertThrows(NullPointerException.class, () -> map.get(1, null));
            assertMessage(assertThrows(BadArgumentException.class, () -> map.put(1, new byte[101])), "101 bytes");
            assertNull(map.get(1), "a refused put changed nothing");
            map.put(1, new byte[50]);
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get(1, MemorySegment.ofArray(new byte[49]))),
                    "50 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get(1, MemorySegment.ofArray(new byte[0]))),
                    "50 bytes");
            map.close();
            map.close();
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get(1)), "closed");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.put(1, new byte[1])), "closed");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.remove(1)), "closed");
        }
    }

    private static void assertMessage(Exception e, String part) {
        assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }

    @Test
    void shouldTakeTwoRoundTripsPerLookupWithTheBucketsInOneBatch() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 64, 256);
            map.put(11, value(100, 1));
            MapCounts before = MapCounts.of(t);
            assertArrayEquals(value(100, 1), map.get(11));
            MapCounts hit = before.since(t);
            assertEquals(new MapCounts(2, 4, 0, 0), hit, "a lookup: 1 batch of 2 bucket READs and the root header's READ, then 1 READ of the block");
            before = MapCounts.of(t);
            assertNull(map.get(12));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "a miss: the batch of 2 bucket READs and the root header's READ only");
        }
    }

    @Test
    void shouldTakeAtMostThreeRoundTripsPerInsertUpdateAndRemoveWhenUncontended() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 64, 256);
            long alloc = map.allocatorRoundTrips();
            MapCounts before = MapCounts.of(t);
            assertTrue(map.put(5, value(30, 1)));
            MapCounts insert = before.since(t);
            assertEquals(3, insert.roundTrips() - (map.allocatorRoundTrips() - alloc),
                    "insert: batch(WRITE block, 2 READs, header READ), batch(claim CAS, 2 READs), commit CAS: " + insert);
            assertTrue(insert.compareAndSwaps() >= 2 && insert.reads() >= 5, insert.toString());

            alloc = map.allocatorRoundTrips();
            before = MapCounts.of(t);
            assertFalse(map.put(5, value(60, 2)));
            MapCounts update = before.since(t);
            assertEquals(3, update.roundTrips() - (map.allocatorRoundTrips() - alloc),
                    "update: batch(WRITE block, 2 READs, header READ), READ of the old key, CAS: " + update);

            before = MapCounts.of(t);
            assertTrue(map.remove(5));
            assertEquals(new MapCounts(3, 4, 0, 1), before.since(t), "remove: batch of 2 READs and the root header's READ, READ of the key, CAS");
            before = MapCounts.of(t);
            assertFalse(map.remove(5));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "remove of an absent key: the batch of 2 READs and the root header's READ");
        }
    }
}
