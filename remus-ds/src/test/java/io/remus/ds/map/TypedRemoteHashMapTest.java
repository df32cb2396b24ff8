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
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TypedRemoteHashMap} and the built-in {@link Codec}s: round trips of values, errors, and RDMA operations per call. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TypedRemoteHashMapTest {
    private static final int HOME = 1;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    @Test
    void shouldReturnStringValuesWhenKeysAreStrings() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            TypedRemoteHashMap<String, String> map = TypedRemoteHashMap.create(t, r, HOME, 32, 40, 64, Codec.UTF8, Codec.UTF8);
            String[] keys = {"a", "ab", "abc", "user:1", "user:10", "user:100", "ключ", "鍵", "emoji \uD83D\uDE00", ""};
            for (int i = 0; i < keys.length - 1; i++) {
                assertTrue(map.put(keys[i], "value of " + keys[i]), keys[i]);
            }
            for (int i = 0; i < keys.length - 1; i++) {
                assertEquals("value of " + keys[i], map.get(keys[i]));
                assertTrue(map.containsKey(keys[i]));
            }
            assertFalse(map.put("user:10", ""));
            assertEquals("", map.get("user:10"), "an empty value is a value");
            assertTrue(map.remove("user:1"));
            assertNull(map.get("user:1"));
            assertEquals("value of user:100", map.get("user:100"));
            assertFalse(map.containsKey("user:1000"));
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get("")), "0 bytes");
        }
    }

    @Test
    void shouldReturnByteArrayValuesAndShareEntriesWithTheByteMap() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t);
             ComputeThread other = c.thread(2); NeverReclaimer ro = new NeverReclaimer(other)) {
            RemoteHashMap bytes = RemoteHashMap.create(t, r, HOME, 16, 16, 32);
            TypedRemoteHashMap<String, byte[]> map = TypedRemoteHashMap.of(bytes, Codec.UTF8, Codec.BYTES);
            assertTrue(map.put("k", new byte[] {1, 2, 3}));
            assertArrayEquals(new byte[] {1, 2, 3}, bytes.get("k".getBytes(StandardCharsets.UTF_8)));
            assertArrayEquals(new byte[] {1, 2, 3}, map.get("k"));
            TypedRemoteHashMap<Long, String> longs = TypedRemoteHashMap.attach(other, ro, map.ptr(), Codec.LONG, Codec.UTF8);
            assertEquals(16, longs.maxKeyBytes());
            assertTrue(longs.put(42L, "forty-two"));
            assertArrayEquals("forty-two".getBytes(StandardCharsets.UTF_8), bytes.get(42L), "Long keys encode as long keys");
            assertArrayEquals("forty-two".getBytes(StandardCharsets.UTF_8), map.get(new String(new byte[] {42, 0, 0, 0, 0, 0, 0, 0},
                    StandardCharsets.ISO_8859_1)));
        }
    }

    @Test
    void shouldRefuseEncodingsLongerThanTheLimitsNamingBoth() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            TypedRemoteHashMap<String, String> map = TypedRemoteHashMap.create(t, r, HOME, 16, 4, 6, Codec.UTF8, Codec.UTF8);
            MapCounts before = MapCounts.of(t);
            BadArgumentException key = assertThrows(BadArgumentException.class, () -> map.put("ключ", "v"));
            assertMessage(key, "8 bytes");
            assertMessage(key, "1..4");
            BadArgumentException value = assertThrows(BadArgumentException.class, () -> map.put("k", "seven!!"));
            assertMessage(value, "7 bytes");
            assertMessage(value, "0..6");
            assertThrows(NullPointerException.class, () -> map.put(null, "v"));
            assertThrows(NullPointerException.class, () -> map.put("k", null));
            assertThrows(NullPointerException.class, () -> map.get(null));
            assertEquals(new MapCounts(0, 0, 0, 0), before.since(t), "no RDMA operation for refused input");
            assertMessage(assertThrows(BadArgumentException.class, () -> Codec.LONG.decode(MemorySegment.ofArray(new byte[4]), 4)),
                    "got 4");
            map.close();
            assertMessage(assertThrows(BadArgumentException.class, () -> map.get("k")), "closed");
        }
    }

    @Test
    void shouldEncodeStringsAsUtf8WithoutAllocatingArrays() {
        MemorySegment into = MemorySegment.ofArray(new byte[32]);
        for (String s : new String[] {"plain", "é", "€", "\uD83D\uDE00", "a\uD800b", "\uDC00"}) {
            long n = Codec.UTF8.encode(s, into);
            byte[] expected = s.getBytes(StandardCharsets.UTF_8);
            assertEquals(expected.length, n, s);
            assertArrayEquals(expected, into.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), s);
            assertEquals(new String(expected, StandardCharsets.UTF_8), Codec.UTF8.decode(into, n));
        }
        assertEquals(40, Codec.UTF8.encode("x".repeat(40), into), "too long: the length, nothing meaningful written");
    }

    @Test
    void shouldTakeTheByteMapsRoundTripsPerCall() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            TypedRemoteHashMap<String, String> map = TypedRemoteHashMap.create(t, r, HOME, 64, 32, 64, Codec.UTF8, Codec.UTF8);
            long alloc = map.bytes().allocatorRoundTrips();
            MapCounts before = MapCounts.of(t);
            assertTrue(map.put("session:abcdef", "payload"));
            assertEquals(3, before.since(t).roundTrips() - (map.bytes().allocatorRoundTrips() - alloc), "insert");
            before = MapCounts.of(t);
            assertEquals("payload", map.get("session:abcdef"));
            assertEquals(new MapCounts(2, 4, 0, 0), before.since(t), "a lookup");
            before = MapCounts.of(t);
            assertNull(map.get("session:abcdeg"));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "a miss");
            before = MapCounts.of(t);
            assertTrue(map.remove("session:abcdef"));
            assertEquals(new MapCounts(3, 4, 0, 1), before.since(t), "a remove");
        }
    }

    private static void assertMessage(Exception e, String part) {
        assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }
}
