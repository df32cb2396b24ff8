package io.remus.ds.index;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The index's state machine alone: results, the session table's exactly-once rule, malformed entries. */
class IndexStateMachineTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static MemorySegment entry(byte op, long client, long seq, String key, String value) {
        MemorySegment m = MemorySegment.ofArray(new byte[IndexFormat.MAX_ENTRY_BYTES]);
        int n = IndexFormat.writeRequest(m, op, 0, client, seq, b(key), value == null ? null : b(value));
        return m.asSlice(0, n);
    }

    private static IndexStatus reply(IndexStateMachine m, long client, long seq) {
        MemorySegment r = MemorySegment.ofArray(new byte[256]);
        int n = m.replyFromTable(client, seq, 0, r);
        return n < 0 ? null : IndexStatus.of(r.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void shouldApplyADuplicateEntryOnceAndAnswerItFromTheTable() {
        IndexStateMachine m = new IndexStateMachine();
        MemorySegment put = entry(IndexFormat.PUT, 9, 1, "k", "v1");
        m.apply(0, put);
        m.apply(1, put);
        m.apply(2, entry(IndexFormat.PUT, 9, 1, "k", "other"));
        assertEquals(1, m.applied());
        assertEquals(2, m.duplicates());
        assertArrayEquals(b("v1"), m.localValue(b("k")));
        assertEquals(IndexStatus.ABSENT, reply(m, 9, 1), "the first put found no value");
        assertNull(reply(m, 9, 2), "sequence 2 is not applied yet");
        m.apply(3, entry(IndexFormat.DELETE, 9, 2, "k", null));
        assertEquals(IndexStatus.FOUND, reply(m, 9, 2));
        assertEquals(IndexStatus.STALE, reply(m, 9, 1), "behind the last applied sequence");
        assertNull(m.localValue(b("k")));
        m.apply(4, entry(IndexFormat.PUT, 10, 1, "k", "w"));
        assertEquals(2, m.clients());
        assertEquals(1, m.size());
        assertEquals(4, m.lastIndex());
        assertEquals(2, m.lastSequence(9));
        assertEquals(0, m.lastSequence(11));
    }

    @Test
    void shouldReachTheSameStateFromTheSameEntriesAndSkipMalformedOnes() {
        IndexStateMachine a = new IndexStateMachine();
        IndexStateMachine b = new IndexStateMachine();
        for (IndexStateMachine m : new IndexStateMachine[] {a, b}) {
            long i = 0;
            for (int c = 1; c <= 3; c++) {
                for (int s = 1; s <= 20; s++) {
                    byte op = s % 5 == 0 ? IndexFormat.DELETE : s % 3 == 0 ? IndexFormat.GET : IndexFormat.PUT;
                    m.apply(i++, entry(op, c, s, "k" + (s * c) % 7, op == IndexFormat.PUT ? "v" + s + c : null));
                }
            }
            m.apply(i, MemorySegment.ofArray(new byte[5]));
        }
        assertEquals(a.describe(), b.describe());
        assertEquals(1, a.malformed());
        assertEquals(60, a.applied());
    }
}
