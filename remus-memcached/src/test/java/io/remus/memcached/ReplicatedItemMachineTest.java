package io.remus.memcached;

import io.remus.core.error.BadArgumentException;
import io.remus.memcached.ReplicatedItemMachine.Command;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replicated shard's state machine: memcached semantics from log entries, exactly once, time from entries. */
class ReplicatedItemMachineTest {
    private static final long T0 = 1_000_000_000L;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A log of entries applied to one or more machines in order, as replicas would. */
    private static final class Log {
        final List<byte[]> entries = new ArrayList<>();
        final ReplicatedItemMachine m = new ReplicatedItemMachine(64, 0, 1);
        long seq;

        Object run(long time, Command c) {
            return run(7, ++seq, time, c);
        }

        Object run(long client, long sequence, long time, Command c) {
            byte[] e = ReplicatedItemMachine.encode(client, sequence, time, c);
            entries.add(e);
            m.apply(entries.size() - 1, MemorySegment.ofArray(e));
            return m.reply(client, sequence).result();
        }
    }

    @Test
    void shouldRunEveryCommandWithMemcachedSemantics() {
        Log l = new Log();
        assertEquals(StoreResult.STORED, l.run(T0, Command.store(StoreMode.SET, b("k"), 5, 0, b("v"), 0)));
        assertEquals(StoreResult.NOT_STORED, l.run(T0, Command.store(StoreMode.ADD, b("k"), 0, 0, b("x"), 0)));
        assertEquals(StoreResult.NOT_STORED, l.run(T0, Command.store(StoreMode.REPLACE, b("no"), 0, 0, b("x"), 0)));
        assertEquals(StoreResult.STORED, l.run(T0, Command.store(StoreMode.APPEND, b("k"), 0, 0, b("w"), 0)));
        assertEquals(StoreResult.STORED, l.run(T0, Command.store(StoreMode.PREPEND, b("k"), 0, 0, b("u"), 0)));
        Item item = (Item) l.run(T0, Command.get(b("k")));
        assertArrayEquals(b("uvw"), item.value());
        assertEquals(5, item.flags());
        assertEquals(StoreResult.EXISTS, l.run(T0, Command.store(StoreMode.CAS, b("k"), 0, 0, b("c"), item.cas() + 1)));
        assertEquals(StoreResult.STORED, l.run(T0, Command.store(StoreMode.CAS, b("k"), 0, 0, b("c"), item.cas())));
        assertEquals(StoreResult.NOT_FOUND, l.run(T0, Command.store(StoreMode.CAS, b("none"), 0, 0, b("c"), 1)));
        l.run(T0, Command.store(StoreMode.SET, b("n"), 0, 0, b("10"), 0));
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 13), l.run(T0, Command.arithmetic(b("n"), true, 3)));
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 0), l.run(T0, Command.arithmetic(b("n"), false, 99)));
        assertEquals(ArithmeticResult.Status.NON_NUMERIC,
                ((ArithmeticResult) l.run(T0, Command.arithmetic(b("k"), true, 1))).status());
        assertEquals(Boolean.TRUE, l.run(T0, Command.delete(b("n"))));
        assertEquals(Boolean.FALSE, l.run(T0, Command.delete(b("n"))));
        assertEquals(Boolean.TRUE, l.run(T0, Command.touch(b("k"), 10)));
        assertEquals(Boolean.FALSE, l.run(T0, Command.touch(b("none"), 10)));
        assertEquals(Boolean.TRUE, l.run(T0, Command.flushAll(0)));
        assertNull(l.run(T0, Command.get(b("k"))));
        assertThrows(BadArgumentException.class, () -> ReplicatedItemMachine.encode(1, 0, T0, Command.get(b("k"))));
        assertThrows(BadArgumentException.class, () -> ReplicatedItemMachine.encode(1, 1, T0, Command.get(new byte[0])));
    }

    @Test
    void shouldExpireByTheEntriesTimeOnEveryReplicaAlike() {
        Log l = new Log();
        l.run(T0, Command.store(StoreMode.SET, b("k"), 0, 10, b("v"), 0));
        assertTrue(l.run(T0 + 9, Command.get(b("k"))) instanceof Item);
        assertNull(l.run(T0 + 10, Command.get(b("k"))));
        l.run(T0 + 10, Command.store(StoreMode.SET, b("j"), 0, 10, b("v"), 0));
        // a later leader whose clock is behind does not bring the item back to life nor shorten time
        assertNull(l.run(T0 + 25, Command.get(b("j"))));
        l.run(T0, Command.store(StoreMode.SET, b("i"), 0, 5, b("v"), 0));
        assertEquals(T0 + 25, l.m.now());
        assertTrue(l.run(T0, Command.get(b("i"))) instanceof Item);

        ReplicatedItemMachine other = new ReplicatedItemMachine(64, 0, 1);
        for (int i = 0; i < l.entries.size(); i++) {
            other.apply(i, MemorySegment.ofArray(l.entries.get(i)));
        }
        assertEquals(l.m.size(), other.size());
        Item a = (Item) l.m.reply(7, l.seq).result();
        Item c = (Item) other.reply(7, l.seq).result();
        assertArrayEquals(a.value(), c.value());
        assertEquals(a.cas(), c.cas(), "CAS unique values come from the state, the same on every replica");
    }

    @Test
    void shouldApplyARetriedCommandOnce() {
        Log l = new Log();
        l.run(1, 1, T0, Command.store(StoreMode.SET, b("n"), 0, 0, b("1"), 0));
        Object first = l.run(1, 2, T0, Command.arithmetic(b("n"), true, 1));
        Object again = l.run(1, 2, T0, Command.arithmetic(b("n"), true, 1));
        assertEquals(first, again);
        assertEquals(1, l.m.duplicates());
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 2), first);
        // another client's sequence numbers are its own
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 3), l.run(2, 2, T0, Command.arithmetic(b("n"), true, 1)));
        assertNull(l.m.reply(1, 3));
        assertTrue(l.m.reply(1, 1).stale());
    }

    @Test
    void shouldRestoreFromASnapshotTheStateTheEntriesBuilt() {
        Log l = new Log();
        l.run(1, 1, T0, Command.store(StoreMode.SET, b("k"), 5, 100, b("v"), 0));
        l.run(1, 2, T0, Command.store(StoreMode.SET, b("n"), 0, 0, b("10"), 0));
        l.run(2, 1, T0, Command.arithmetic(b("n"), true, 3));
        l.run(3, 1, T0 + 1, Command.get(b("k")));
        l.run(4, 1, T0 + 1, Command.delete(b("gone")));
        l.run(5, 1, T0 + 1, Command.store(StoreMode.ADD, b("k"), 0, 0, b("x"), 0));
        MemorySegment image = l.m.snapshot();

        ReplicatedItemMachine restored = new ReplicatedItemMachine(64, 0, 1);
        restored.restore(image, l.entries.size());
        assertEquals(l.entries.size(), restored.applied());
        assertEquals(2, restored.size());
        assertEquals(T0 + 1, restored.now());
        assertEquals(new ArithmeticResult(ArithmeticResult.Status.OK, 13), restored.reply(2, 1).result());
        assertArrayEquals(b("v"), ((Item) restored.reply(3, 1).result()).value());
        assertEquals(Boolean.FALSE, restored.reply(4, 1).result());
        assertEquals(StoreResult.NOT_STORED, restored.reply(5, 1).result());
        assertTrue(restored.reply(1, 1).stale());

        // the next entries apply alike on both: the same results, CAS values, expiry and duplicates
        byte[] set = ReplicatedItemMachine.encode(6, 1, T0 + 2, Command.store(StoreMode.SET, b("j"), 0, 0, b("w"), 0));
        byte[] retry = ReplicatedItemMachine.encode(2, 1, T0 + 2, Command.arithmetic(b("n"), true, 3));
        byte[] late = ReplicatedItemMachine.encode(7, 1, T0 + 100, Command.get(b("k")));
        byte[] getJ = ReplicatedItemMachine.encode(8, 1, T0 + 100, Command.get(b("j")));
        for (ReplicatedItemMachine m : List.of(l.m, restored)) {
            m.apply(l.entries.size(), MemorySegment.ofArray(set));
            m.apply(l.entries.size() + 1, MemorySegment.ofArray(retry));
            m.apply(l.entries.size() + 2, MemorySegment.ofArray(late));
            m.apply(l.entries.size() + 3, MemorySegment.ofArray(getJ));
        }
        assertEquals(((Item) l.m.reply(8, 1).result()).cas(), ((Item) restored.reply(8, 1).result()).cas(),
                "the CAS counter came with the image");
        assertNull(restored.reply(7, 1).result(), "k expired at its absolute time on the restored machine too");
        assertEquals(1, restored.duplicates());
        assertEquals(l.m.applied(), restored.applied());
        assertEquals(l.m.size(), restored.size());

        assertThrows(BadArgumentException.class, () -> restored.restore(MemorySegment.ofArray(new byte[3]), 1));
        assertThrows(BadArgumentException.class,
                () -> restored.restore(image.asSlice(0, image.byteSize() - 1), 1));
        assertEquals(l.m.size(), restored.size(), "a refused image leaves the state as it was");
    }
}
