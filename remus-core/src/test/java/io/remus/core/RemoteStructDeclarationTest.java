package io.remus.core;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Declaring a {@link RemoteStruct} and its fields, and the local accessors of a field: no fabric involved. */
class RemoteStructDeclarationTest {
    private static final StructLayout PAIR_LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("count"),
            ValueLayout.JAVA_LONG.withName("next"),
            ValueLayout.JAVA_INT.withName("tag"),
            MemoryLayout.paddingLayout(4)).withName("pair");
    private static final RemoteStruct PAIR = RemoteStruct.of(PAIR_LAYOUT);

    @Test
    void shouldResolveFieldNamesToTheLayoutsOffsets() {
        assertEquals("pair", PAIR.name());
        assertEquals(24, PAIR.byteSize());
        assertSame(PAIR_LAYOUT, PAIR.layout());
        assertEquals(List.of("count", "next", "tag"), PAIR.fieldNames(), "the padding has no name");
        RemoteStruct.Field next = PAIR.field("next");
        assertEquals(8, next.offset());
        assertEquals("next", next.name());
        assertSame(PAIR, next.struct());
        assertEquals(0, PAIR.field("count").offset());
        assertEquals("pair.next@8", next.toString());

        RemoteStruct padded = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("a"),
                MemoryLayout.paddingLayout(12), ValueLayout.JAVA_LONG.withName("b")));
        assertEquals(16, padded.field("b").offset(), "offsets count the padding before the field");
        assertEquals("struct", padded.name(), "a layout without a name");
    }

    @Test
    void shouldNameTheFieldAndTheKnownFieldsWhenTheNameIsUnknown() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> PAIR.field("cnt"));
        assertTrue(e.getMessage().contains("'cnt'") && e.getMessage().contains("'pair'")
                && e.getMessage().contains("[count, next, tag]"), e.getMessage());
    }

    @Test
    void shouldRefuseAFieldThatAnRdmaWordOperationCannotMoveWhole() {
        BadArgumentException notLong = assertThrows(BadArgumentException.class, () -> PAIR.field("tag"));
        assertTrue(notLong.getMessage().contains("'tag'") && notLong.getMessage().contains("not a long"), notLong.getMessage());

        RemoteStruct doubles = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_DOUBLE.withName("d")));
        assertThrows(BadArgumentException.class, () -> doubles.field("d"), "a double is 8 bytes, but no word an atomic adds");

        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        RemoteStruct swapped = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_LONG.withOrder(other).withName("w")));
        BadArgumentException order = assertThrows(BadArgumentException.class, () -> swapped.field("w"));
        assertTrue(order.getMessage().contains("'w'") && order.getMessage().contains(other.toString()), order.getMessage());

        RemoteStruct packed = RemoteStruct.of(MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("a"),
                ValueLayout.JAVA_LONG_UNALIGNED.withName("b")));
        BadArgumentException unaligned = assertThrows(BadArgumentException.class, () -> packed.field("b"));
        assertTrue(unaligned.getMessage().contains("'b'") && unaligned.getMessage().contains("8-byte aligned"),
                unaligned.getMessage());

        RemoteStruct nested = RemoteStruct.of(MemoryLayout.structLayout(PAIR_LAYOUT.withName("inner")));
        assertThrows(BadArgumentException.class, () -> nested.field("inner"), "a nested struct is not a word");
    }

    @Test
    void shouldRefuseAnEmptyStructAndDuplicateNames() {
        assertThrows(BadArgumentException.class, () -> RemoteStruct.of(MemoryLayout.structLayout()));
        BadArgumentException twice = assertThrows(BadArgumentException.class, () -> RemoteStruct.of(MemoryLayout.structLayout(
                ValueLayout.JAVA_LONG.withName("x"), ValueLayout.JAVA_LONG.withName("x"))));
        assertTrue(twice.getMessage().contains("'x'"), twice.getMessage());
    }

    @Test
    void shouldThrowNullPointerNamingTheParameter() {
        assertEquals("layout", assertThrows(NullPointerException.class, () -> RemoteStruct.of(null)).getMessage());
        assertEquals("fieldName", assertThrows(NullPointerException.class, () -> PAIR.field(null)).getMessage());
        RemoteStruct.Field count = PAIR.field("count");
        assertEquals("local", assertThrows(NullPointerException.class, () -> count.get(null)).getMessage());
        assertEquals("thread", assertThrows(NullPointerException.class, () -> count.get(null, 8)).getMessage());
        assertEquals("thread", assertThrows(NullPointerException.class, () -> PAIR.read(null, 8, 0L)).getMessage());
    }

    @Test
    void shouldReadAndWriteAFieldOfALocalCopy() {
        RemoteStruct.Field next = PAIR.field("next");
        MemorySegment local = MemorySegment.ofArray(new byte[24]);
        next.set(local, 42);
        assertEquals(42, next.get(local));
        assertEquals(42, local.get(ValueLayout.JAVA_LONG_UNALIGNED, 8), "at the field's offset");
        assertEquals(0, PAIR.field("count").get(local));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment direct = arena.allocate(PAIR_LAYOUT);
            next.set(direct, -1);
            assertEquals(-1, (long) PAIR_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("next")).get(direct, 0L));
        }
    }

    @Test
    void shouldRefuseALocalCopySmallerThanTheStructOrReadOnly() {
        RemoteStruct.Field count = PAIR.field("count");
        BadArgumentException small = assertThrows(BadArgumentException.class, () -> count.get(MemorySegment.ofArray(new byte[16])));
        assertTrue(small.getMessage().contains("16") && small.getMessage().contains("24"), small.getMessage());
        MemorySegment readOnly = MemorySegment.ofArray(new byte[24]).asReadOnly();
        assertThrows(BadArgumentException.class, () -> count.set(readOnly, 1));
        assertEquals(0, count.get(readOnly), "reading a read-only copy is fine");
    }
}
