package io.remus.memcached;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memcached's item semantics in one shard's table, with a clock the test moves. */
class ItemTableTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldGiveCasValuesUniqueAcrossShardsAndChangedByEveryWrite() {
        Set<Long> seen = new HashSet<>();
        for (int shard = 0; shard < 4; shard++) {
            ItemTable t = new ItemTable(now::get, 100, shard, 4);
            for (int i = 0; i < 10; i++) {
                t.store(StoreMode.SET, b("k"), 0, 0, b("v"), 0);
                assertTrue(seen.add(t.get(b("k")).cas()));
                t.store(StoreMode.APPEND, b("k"), 0, 0, b("w"), 0);
                assertTrue(seen.add(t.get(b("k")).cas()));
                t.store(StoreMode.SET, b("n"), 0, 0, b("1"), 0);
                t.arithmetic(b("n"), true, 1);
                assertTrue(seen.add(t.get(b("n")).cas()));
            }
        }
        assertEquals(4 * 10 * 3, seen.size());
        assertTrue(!seen.contains(0L), "0 is never a CAS value");
    }

    @Test
    void shouldKeepFlagsAndExpirationOnAppendAndArithmetic() {
        ItemTable t = new ItemTable(now::get, 100, 0, 1);
        t.store(StoreMode.SET, b("k"), 0xCAFEBABE, 30, b("7"), 0);
        t.store(StoreMode.PREPEND, b("k"), 1, 0, b("1"), 0);
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 18), t.arithmetic(b("k"), true, 1));
        Item item = t.get(b("k"));
        assertEquals(0xCAFEBABE, item.flags());
        assertEquals("18", new String(item.value(), StandardCharsets.US_ASCII));
        now.addAndGet(30);
        assertNull(t.get(b("k")));
        assertEquals(0, t.size());
    }

    @Test
    void shouldWrapIncrAndStopDecrAtZero() {
        ItemTable t = new ItemTable(now::get, 100, 0, 1);
        t.store(StoreMode.SET, b("n"), 0, 0, b("18446744073709551614"), 0);
        assertEquals(-1L, t.arithmetic(b("n"), true, 1).value());
        assertEquals(1L, t.arithmetic(b("n"), true, 2).value());
        assertEquals(0L, t.arithmetic(b("n"), false, -1L).value());
        t.store(StoreMode.SET, b("big"), 0, 0, b("18446744073709551616"), 0);
        assertEquals(ArithmeticResult.Status.NON_NUMERIC, t.arithmetic(b("big"), true, 1).status());
        assertEquals(ArithmeticResult.Status.NOT_FOUND, t.arithmetic(b("none"), false, 1).status());
    }

    @Test
    void shouldRefuseAJoinedValueOverTheItemSize() {
        ItemTable t = new ItemTable(now::get, 4, 0, 1);
        t.store(StoreMode.SET, b("k"), 0, 0, b("abc"), 0);
        assertEquals(StoreResult.STORED, t.store(StoreMode.APPEND, b("k"), 0, 0, b("d"), 0));
        assertEquals(StoreResult.NOT_STORED, t.store(StoreMode.APPEND, b("k"), 0, 0, b("e"), 0));
        assertEquals("abcd", new String(t.get(b("k")).value(), StandardCharsets.US_ASCII));
    }

    @Test
    void shouldTreatExpirationsOverThirtyDaysAsAbsolute() {
        ItemTable t = new ItemTable(now::get, 100, 0, 1);
        t.store(StoreMode.SET, b("rel"), 0, 0, b("r"), 0);
        t.touch(b("rel"), ItemTable.MAX_RELATIVE_SECONDS);
        t.store(StoreMode.SET, b("abs"), 0, ItemTable.MAX_RELATIVE_SECONDS + 1, b("a"), 0);
        assertNull(t.get(b("abs")), "an absolute time long past is already expired");
        now.addAndGet(ItemTable.MAX_RELATIVE_SECONDS - 1);
        assertEquals(1, t.get(b("rel")).value().length);
        now.addAndGet(1);
        assertNull(t.get(b("rel")));
    }

    @Test
    void shouldFlushLaterOnlyWhatIsThereNow() {
        ItemTable t = new ItemTable(now::get, 100, 0, 1);
        t.store(StoreMode.SET, b("old"), 0, 0, b("o"), 0);
        t.flushAll(10);
        t.store(StoreMode.SET, b("new"), 0, 0, b("n"), 0);
        now.addAndGet(10);
        assertNull(t.get(b("old")));
        assertEquals(1, t.get(b("new")).value().length);
        t.flushAll(0);
        assertEquals(0, t.size());
    }

    @Test
    void shouldRejectBadShapes() {
        assertThrows(BadArgumentException.class, () -> new ItemTable(now::get, 0, 0, 1));
        assertThrows(BadArgumentException.class, () -> new ItemTable(now::get, 10, 2, 2));
        assertThrows(BadArgumentException.class, () -> new ItemTable(now::get, 10, -1, 2));
    }
}
