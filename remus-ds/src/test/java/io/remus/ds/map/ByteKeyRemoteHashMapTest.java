package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemoteHashMap} with byte-string keys: keys of many lengths, with long common prefixes and
 * prefixes of one another, fingerprint twins, the {@code long} keys' encoding, typed errors before any
 * RDMA operation, and the same RDMA operations per call as {@code long} keys.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ByteKeyRemoteHashMapTest {
    private static final int HOME = 1;
    private static final int MAX_KEY = 64;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        for (int i = 0; i < size; i++) {
            v[i] = (byte) (seed * 31 + i);
        }
        return v;
    }

    /** Keys of 1..64 bytes: a run of prefixes of one another, keys sharing 40 bytes, and keys ending in zeros. */
    private static List<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        String run = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!?";
        for (int n : new int[] {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64}) {
            keys.add(bytes(run.substring(0, n)));
        }
        String shared = "a-long-prefix-that-forty-bytes-all-shar";
        for (char c = 'a'; c <= 'e'; c++) {
            keys.add(bytes(shared + c));
            keys.add(bytes(shared + c + "tail"));
        }
        keys.add(new byte[] {0});
        keys.add(new byte[] {0, 0});
        keys.add(new byte[] {0, 0, 0});
        keys.add(new byte[] {7, 0, 0, 0, 0, 0, 0, 0, 0});
        keys.add(new byte[] {7, 0, 0, 0, 0, 0, 0});
        return keys;
    }

    @Test
    void shouldKeepEveryKeyApartWhenKeysShareLongPrefixesOrArePrefixesOfEachOther() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 64, MAX_KEY, 200);
            assertEquals(MAX_KEY, map.maxKeyBytes());
            List<byte[]> keys = keys();
            for (int i = 0; i < keys.size(); i++) {
                assertTrue(map.put(keys.get(i), value(i * 7, i)), "key " + i + " is new");
            }
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(value(i * 7, i), map.get(keys.get(i)), "key " + i + " of " + keys.get(i).length + " bytes");
                assertTrue(map.containsKey(MemorySegment.ofArray(keys.get(i))));
            }
            for (int i = 0; i < keys.size(); i += 2) {
                assertFalse(map.put(MemorySegment.ofArray(keys.get(i)), MemorySegment.ofArray(value(3, -i))), "key " + i + " replaced");
                assertTrue(map.remove(keys.get(i + 1)), "key " + (i + 1) + " removed");
            }
            for (int i = 0; i < keys.size(); i++) {
                if (i % 2 == 0) {
                    MemorySegment into = MemorySegment.ofArray(new byte[200]);
                    assertEquals(3, map.get(MemorySegment.ofArray(keys.get(i)), into));
                    assertArrayEquals(value(3, -i), Arrays.copyOf(into.toArray(ValueLayout.JAVA_BYTE), 3), "key " + i);
                } else {
                    assertNull(map.get(keys.get(i)), "key " + i + " was removed, its neighbours not");
                    assertFalse(map.remove(MemorySegment.ofArray(keys.get(i))));
                }
            }
            assertNull(map.get(bytes("a-long-prefix-that-forty-bytes-all-shar")), "the shared prefix itself is no key");
            assertNull(map.get(bytes("abc")), "nor is a prefix of a key");
        }
    }

    @Test
    void shouldTellFingerprintTwinsApartWhenTheyDifferOnlyAfterTheirFirstEightBytes() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 32, 16);
            byte[] first = bytes("same-prefix-0000");
            int fp = RemoteHashMapHistoriesTest.fingerprintOf(first);
            List<byte[]> twins = new ArrayList<>();
            for (int i = 1; twins.size() < 3; i++) {
                byte[] k = bytes(String.format("same-prefix-%04d", i));
                byte[] shorter = bytes(String.format("same-prefix-%d", i));
                if (RemoteHashMapHistoriesTest.fingerprintOf(k) == fp) {
                    twins.add(k);
                }
                if (RemoteHashMapHistoriesTest.fingerprintOf(shorter) == fp && shorter.length != first.length) {
                    twins.add(shorter);
                }
            }
            assertTrue(map.put(first, value(5, 0)));
            for (int i = 0; i < twins.size(); i++) {
                assertNull(map.get(twins.get(i)), "a twin is not the first key");
                assertTrue(map.put(twins.get(i), value(5, i + 1)));
            }
            assertArrayEquals(value(5, 0), map.get(first));
            assertTrue(map.remove(twins.get(0)));
            assertArrayEquals(value(5, 0), map.get(first));
            for (int i = 1; i < twins.size(); i++) {
                assertArrayEquals(value(5, i + 1), map.get(twins.get(i)));
            }
        }
    }

    @Test
    void shouldAddressOneEntryWhenALongKeyAndItsLittleEndianBytesAreUsed() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 16, 32);
            assertEquals(RemoteHashMap.LONG_KEY_BYTES, map.maxKeyBytes(), "the default longest key is a long's");
            assertTrue(map.put(0x0102030405060708L, value(4, 1)));
            byte[] le = {8, 7, 6, 5, 4, 3, 2, 1};
            assertArrayEquals(value(4, 1), map.get(le));
            assertFalse(map.put(le, value(6, 2)));
            assertArrayEquals(value(6, 2), map.get(0x0102030405060708L));
            assertTrue(map.put(new byte[] {8, 7, 6, 5, 4, 3, 2}, value(1, 3)), "a 7-byte prefix is another key");
            assertTrue(map.remove(0x0102030405060708L));
            assertNull(map.get(le));
            assertArrayEquals(value(1, 3), map.get(new byte[] {8, 7, 6, 5, 4, 3, 2}));
        }
    }

    @Test
    void shouldRefuseBadKeysWithTypedErrorsBeforeAnyRdmaOperation() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            assertMessage(assertThrows(BadArgumentException.class, () -> RemoteHashMap.create(t, r, HOME, 4, 0, 8)), "got 0");
            assertMessage(assertThrows(BadArgumentException.class,
                    () -> RemoteHashMap.create(t, r, HOME, 4, RemoteHashMap.MAX_KEY_BYTES + 1, 8)), "got 1025");
            BadArgumentException scratch = assertThrows(BadArgumentException.class,
                    () -> RemoteHashMap.create(t, r, HOME, 4, RemoteHashMap.MAX_KEY_BYTES, 8));
            assertMessage(scratch, "17736");
            assertMessage(scratch, "8192");
            BadArgumentException value = assertThrows(BadArgumentException.class, () -> RemoteHashMap.create(t, r, HOME, 4, 64, 7000));
            assertMessage(value, "got 7000");
            assertMessage(value, "6776");
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 4, 16, 100);
            RemoteHashMap shortKeys = RemoteHashMap.create(t, r, HOME, 4, 4, 100);
            MapCounts before = MapCounts.of(t);
            assertThrows(NullPointerException.class, () -> map.get((byte[]) null));
            assertThrows(NullPointerException.class, () -> map.put((byte[]) null, new byte[1]));
            assertThrows(NullPointerException.class, () -> map.remove((MemorySegment) null));
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get(new byte[0])), "0 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.put(new byte[0], new byte[1])), "0 bytes");
            BadArgumentException tooLong = assertThrows(BadArgumentException.class, () -> map.put(new byte[17], new byte[1]));
            assertMessage(tooLong, "17 bytes");
            assertMessage(tooLong, "1..16");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.remove(MemorySegment.ofArray(new byte[17]))), "17 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.containsKey(new byte[17])), "17 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> map.put(new byte[16], new byte[101])), "101 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> shortKeys.get(5L)), "4 bytes");
            assertMessage(assertThrows(BadArgumentException.class, () -> shortKeys.put(5L, new byte[1])), "4 bytes");
            assertEquals(new MapCounts(0, 0, 0, 0), before.since(t), "no RDMA operation for refused input");
            assertTrue(shortKeys.put(new byte[] {1, 2, 3, 4}, new byte[] {9}));
            assertArrayEquals(new byte[] {9}, shortKeys.get(new byte[] {1, 2, 3, 4}));
        }
    }

    @Test
    void shouldNameTheByteKeyWhenBothBucketsAreFull() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 12, 8);
            for (int i = 0; i < 16; i++) {
                assertTrue(map.put(bytes("key-" + i), new byte[1]));
            }
            MapFullException full = assertThrows(MapFullException.class, () -> map.put(bytes("key-99"), new byte[1]));
            assertArrayEquals(bytes("key-99"), full.keyBytes());
            assertMessage(full, "6 bytes");
        }
    }

    @Test
    void shouldTakeTheRoundTripsOfLongKeysWhenKeysAreStrings() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 64, 48, 256);
            byte[] key = bytes("user:0000000000000000000000000042");
            map.put(key, value(100, 1));
            MapCounts before = MapCounts.of(t);
            assertArrayEquals(value(100, 1), map.get(key));
            assertEquals(new MapCounts(2, 4, 0, 0), before.since(t), "a lookup: 1 batch of 2 bucket READs and the root header's READ, then 1 READ of the block");
            before = MapCounts.of(t);
            assertNull(map.get(bytes("user:0000000000000000000000000043")));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "a miss: the batch of 2 bucket READs and the root header's READ only");
            map.remove(key);

            long alloc = map.allocatorRoundTrips();
            before = MapCounts.of(t);
            assertTrue(map.put(key, value(30, 1)));
            MapCounts insert = before.since(t);
            assertEquals(3, insert.roundTrips() - (map.allocatorRoundTrips() - alloc),
                    "insert: batch(WRITE block, 2 READs, header READ), batch(claim CAS, 2 READs), commit CAS: " + insert);
            alloc = map.allocatorRoundTrips();
            before = MapCounts.of(t);
            assertFalse(map.put(key, value(60, 2)));
            MapCounts update = before.since(t);
            assertEquals(3, update.roundTrips() - (map.allocatorRoundTrips() - alloc),
                    "update: batch(WRITE block, 2 READs, header READ), READ of the old key, CAS: " + update);
            before = MapCounts.of(t);
            assertTrue(map.remove(key));
            assertEquals(new MapCounts(3, 4, 0, 1), before.since(t), "remove: batch of 2 READs and the root header's READ, READ of the key, CAS");
            before = MapCounts.of(t);
            assertFalse(map.remove(key));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "remove of an absent key: the batch of 2 READs and the root header's READ");
        }
    }

    @Test
    void shouldAttachWithTheLongestKeyStoredInTheRoot() {
        try (TestCluster c = cluster(); ComputeThread a = c.thread(0); NeverReclaimer ra = new NeverReclaimer(a);
             ComputeThread b = c.thread(2); NeverReclaimer rb = new NeverReclaimer(b)) {
            RemoteHashMap first = RemoteHashMap.create(a, ra, HOME, 8, 40, 24);
            RemoteHashMap second = RemoteHashMap.attach(b, rb, first.ptr());
            assertEquals(40, second.maxKeyBytes());
            assertEquals(24, second.maxValueBytes());
            first.put(bytes("a key of more than eight bytes"), value(24, 5));
            assertArrayEquals(value(24, 5), second.get(bytes("a key of more than eight bytes")));
            second.destroy();
        }
    }

    private static void assertMessage(Exception e, String part) {
        assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }
}
