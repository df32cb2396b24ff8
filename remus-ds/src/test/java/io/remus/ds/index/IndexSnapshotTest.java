package io.remus.ds.index;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index state machine's snapshot image alone: a round trip keeps the map, the session table (a retry is
 * answered from it and applied as a duplicate) and the counts; equal states give byte-identical images; a bad image
 * (truncated, wrong magic or version, a length, count or order out of range, bytes left over) is refused with a
 * typed error naming what is wrong, and changes nothing.
 */
class IndexSnapshotTest {
    private static final int HEADER = IndexStateMachine.IMAGE_HEADER_BYTES;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static MemorySegment entry(byte op, long client, long seq, String key, String value) {
        MemorySegment m = MemorySegment.ofArray(new byte[IndexFormat.MAX_ENTRY_BYTES]);
        int n = IndexFormat.writeRequest(m, op, 0, client, seq, b(key), value == null ? null : b(value));
        return m.asSlice(0, n);
    }

    /** The entries of a seeded workload: 4 clients, puts, gets and deletes over 9 keys, some resent, one malformed. */
    private static List<MemorySegment> workload(long seed, int count) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] seq = new long[5];
        List<MemorySegment> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int c = 1 + rnd.nextInt(4);
            if (seq[c] > 0 && rnd.nextInt(8) == 0) {
                out.add(entry(IndexFormat.PUT, c, seq[c], "k0", "resent"));
                continue;
            }
            int pick = rnd.nextInt(10);
            byte op = pick < 5 ? IndexFormat.PUT : pick < 8 ? IndexFormat.GET : IndexFormat.DELETE;
            out.add(entry(op, c, ++seq[c], "k" + rnd.nextInt(9), op == IndexFormat.PUT ? "v" + rnd.nextInt(1000) : null));
        }
        out.add(count / 2, MemorySegment.ofArray(new byte[7]));
        return out;
    }

    private static IndexStateMachine applied(List<MemorySegment> entries) {
        IndexStateMachine m = new IndexStateMachine();
        for (int i = 0; i < entries.size(); i++) {
            m.apply(i, entries.get(i));
        }
        return m;
    }

    private static byte[] image(IndexStateMachine m) {
        return m.snapshot().toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] reply(IndexStateMachine m, long client, long seq) {
        MemorySegment r = MemorySegment.ofArray(new byte[IndexFormat.MAX_ENTRY_BYTES]);
        int n = m.replyFromTable(client, seq, 0, r);
        return n < 0 ? null : r.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void shouldRestoreTheMapTheSessionsAndTheCountsFromAnImage() {
        List<MemorySegment> entries = workload(7, 300);
        IndexStateMachine a = applied(entries);
        byte[] image = image(a);
        IndexStateMachine b = new IndexStateMachine();
        b.apply(0, entry(IndexFormat.PUT, 99, 1, "gone", "x"));
        b.restore(MemorySegment.ofArray(image).asReadOnly(), entries.size());
        assertEquals(a.describe(), b.describe());
        assertArrayEquals(image, image(b), "the restored machine's image is the same bytes");
        assertEquals(a.applied(), b.applied());
        assertEquals(a.duplicates(), b.duplicates());
        assertEquals(1, b.malformed());
        assertEquals(entries.size() - 1, b.lastIndex());
        assertEquals(a.size(), b.size());
        assertEquals(4, b.clients(), "client 99's session is gone with the state it belonged to");
        assertNull(b.localValue(b("gone")));
        for (long c = 1; c <= 4; c++) {
            long last = a.lastSequence(c);
            assertTrue(last > 0);
            assertEquals(last, b.lastSequence(c));
            assertArrayEquals(reply(a, c, last), reply(b, c, last), "client " + c + "'s last result, from the table");
            assertArrayEquals(reply(a, c, last - 1), reply(b, c, last - 1), "client " + c + "'s earlier one: STALE");
            assertNull(reply(b, c, last + 1), "not applied yet");
        }
        long appliedBefore = b.applied();
        long duplicatesBefore = b.duplicates();
        String before = b.describe();
        b.apply(entries.size(), entry(IndexFormat.PUT, 1, b.lastSequence(1), "k1", "retried"));
        assertEquals(appliedBefore, b.applied(), "a retry after the restore is not applied again");
        assertEquals(duplicatesBefore + 1, b.duplicates());
        assertEquals(before, b.describe());
        b.apply(entries.size() + 1, entry(IndexFormat.PUT, 1, b.lastSequence(1) + 1, "k1", "fresh"));
        assertArrayEquals(b("fresh"), b.localValue(b("k1")));
        assertEquals(appliedBefore + 1, b.applied());
    }

    @Test
    void shouldGiveByteIdenticalImagesForEqualStates() {
        for (long seed = 1; seed <= 5; seed++) {
            List<MemorySegment> entries = workload(seed, 200);
            IndexStateMachine a = applied(entries);
            IndexStateMachine b = applied(entries);
            assertArrayEquals(image(a), image(b), "seed " + seed + ": two replicas of one log");
            IndexStateMachine c = new IndexStateMachine();
            c.restore(a.snapshot(), entries.size());
            assertArrayEquals(image(a), image(c), "seed " + seed + ": a replica restored from the image");
        }
        IndexStateMachine x = new IndexStateMachine();
        IndexStateMachine y = new IndexStateMachine();
        x.apply(0, entry(IndexFormat.PUT, 1, 1, "a", "1"));
        x.apply(1, entry(IndexFormat.PUT, 2, 1, "b", "2"));
        y.apply(0, entry(IndexFormat.PUT, 2, 1, "b", "2"));
        y.apply(1, entry(IndexFormat.PUT, 1, 1, "a", "1"));
        assertArrayEquals(image(x), image(y), "the order of insertion leaves no trace");
        assertNotEquals(image(x).length, image(new IndexStateMachine()).length);
        assertEquals(HEADER, image(new IndexStateMachine()).length, "an empty machine's image is its header");
    }

    @Test
    void shouldRefuseEveryTruncatedImageAndChangeNothing() {
        List<MemorySegment> entries = workload(3, 60);
        byte[] image = image(applied(entries));
        IndexStateMachine m = applied(workload(4, 30));
        byte[] before = image(m);
        String state = m.describe();
        for (int n = 0; n < image.length; n++) {
            int cut = n;
            BadArgumentException e = assertThrows(BadArgumentException.class,
                    () -> m.restore(MemorySegment.ofArray(image).asSlice(0, cut), entries.size()), "cut at " + cut);
            assertTrue(e.getMessage().contains("snapshot image of " + cut + " bytes"), e.getMessage());
        }
        assertArrayEquals(before, image(m), "no refused image changed the machine");
        assertEquals(state, m.describe());
        assertEquals(30, m.lastIndex(), "30 entries and a malformed one");
    }

    @Test
    void shouldRefuseAnImageWithAFieldOutOfRangeNamingIt() {
        IndexStateMachine src = new IndexStateMachine();
        src.apply(0, entry(IndexFormat.PUT, 5, 1, "key", "value"));
        src.apply(1, entry(IndexFormat.GET, 5, 2, "key", null));
        byte[] good = image(src);
        int key = HEADER;
        int session = HEADER + 8 + 3 + 5;
        IndexStateMachine m = applied(workload(9, 40));
        byte[] before = image(m);
        refuse(m, good, 2, i -> i.set(ValueLayout.JAVA_INT_UNALIGNED, 0, 0x12345678), "magic 0x12345678");
        refuse(m, good, 2, i -> i.set(ValueLayout.JAVA_BYTE, 4, (byte) 2), "version 2");
        refuse(m, good, 3, i -> { }, "do not sum to the 3 entries");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_LONG, 16, -1L), "duplicates -1");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, 32, Integer.MAX_VALUE), "key count 2147483647");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, 32, -1), "key count -1");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, 36, 3), "client count 3");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, key, 0), "a 0-byte key");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, key, IndexFormat.MAX_KEY_BYTES + 1), "a 65-byte key");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, key + 4, IndexFormat.MAX_VALUE_BYTES + 1),
                "a " + (IndexFormat.MAX_VALUE_BYTES + 1) + "-byte value");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, key + 4, 100), "truncated: value of key 0 needs 100 bytes");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_LONG, session, 0L), "client 0");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_LONG, session + 8, 0L), "sequence 0");
        refuse(m, good, 2, i -> i.set(ValueLayout.JAVA_BYTE, session + 16, IndexStatus.RETRY.code()), "status 4");
        refuse(m, good, 2, i -> i.set(ValueLayout.JAVA_BYTE, session + 16, IndexStatus.ABSENT.code()),
                "result of 5 bytes");
        refuse(m, good, 2, i -> i.set(IndexFormat.LE_INT, session + 17, -1), "result of -1 bytes");
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        refuse(m, longer, 2, i -> { }, "1 bytes after the last record");
        IndexStateMachine two = new IndexStateMachine();
        two.apply(0, entry(IndexFormat.PUT, 5, 1, "a", "1"));
        two.apply(1, entry(IndexFormat.PUT, 6, 1, "b", "2"));
        byte[] pair = image(two);
        int second = HEADER + 8 + 1 + 1;
        refuse(m, pair, 2, i -> i.set(ValueLayout.JAVA_BYTE, second + 8, (byte) 'a'), "not after the key before it");
        int clients = HEADER + 2 * (8 + 1 + 1);
        refuse(m, pair, 2, i -> i.set(IndexFormat.LE_LONG, clients + 21, 5L), "strictly increasing");
        assertThrows(BadArgumentException.class, () -> m.restore(MemorySegment.ofArray(good), -1));
        assertArrayEquals(before, image(m), "no refused image changed the machine");
        m.restore(MemorySegment.ofArray(good), 2);
        assertArrayEquals(good, image(m), "the unchanged image is taken");
        assertArrayEquals(b("value"), m.localValue(b("key")));
    }

    private static void refuse(IndexStateMachine m, byte[] good, long covers, Consumer<MemorySegment> damage,
                               String named) {
        byte[] bad = good.clone();
        damage.accept(MemorySegment.ofArray(bad));
        String state = m.describe();
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> m.restore(MemorySegment.ofArray(bad).asReadOnly(), covers), named);
        assertTrue(e.getMessage().contains(named), "\"" + e.getMessage() + "\" names " + named);
        assertEquals(state, m.describe());
    }
}
