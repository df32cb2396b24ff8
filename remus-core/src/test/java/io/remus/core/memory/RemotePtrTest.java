package io.remus.core.memory;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemotePtrTest {
    @Test
    void shouldRoundTripNodeAndAddressWhenPacked() {
        long p = RemotePtr.of(513, 0x7fff_1234_5678L);
        assertEquals(513, RemotePtr.node(p));
        assertEquals(0x7fff_1234_5678L, RemotePtr.address(p));
    }

    @Test
    void shouldKeepTopNodeAndTopAddressWhenAtTheLimits() {
        long p = RemotePtr.of(RemotePtr.MAX_NODE_ID, RemotePtr.ADDRESS_MASK);
        assertEquals(-1L, p);
        assertEquals(0xFFFF, RemotePtr.node(p));
        assertEquals(RemotePtr.ADDRESS_MASK, RemotePtr.address(p));
    }

    @Test
    void shouldRejectWhenNodeOrAddressDoesNotFit() {
        assertThrows(BadArgumentException.class, () -> RemotePtr.of(-1, 0));
        assertThrows(BadArgumentException.class, () -> RemotePtr.of(0x10000, 0));
        assertThrows(BadArgumentException.class, () -> RemotePtr.of(1, 1L << 48));
        assertThrows(BadArgumentException.class, () -> RemotePtr.of(1, -8));
    }

    @Test
    void shouldMoveOnSameNodeWhenOffset() {
        long p = RemotePtr.of(7, 0x1000);
        long q = RemotePtr.offset(p, 24);
        assertEquals(7, RemotePtr.node(q));
        assertEquals(0x1018, RemotePtr.address(q));
        assertEquals(p, RemotePtr.offset(q, -24));
    }

    @Test
    void shouldRejectWhenOffsetLeavesAddressSpace() {
        long top = RemotePtr.of(3, RemotePtr.ADDRESS_MASK);
        assertThrows(BadArgumentException.class, () -> RemotePtr.offset(top, 1));
        assertThrows(BadArgumentException.class, () -> RemotePtr.offset(RemotePtr.of(3, 4), -5));
    }

    @Test
    void shouldRecognizeNullWhenZero() {
        assertTrue(RemotePtr.isNull(RemotePtr.NULL));
        assertTrue(RemotePtr.isNull(RemotePtr.of(0, 0)));
        assertFalse(RemotePtr.isNull(RemotePtr.of(1, 0)));
        assertEquals("null", RemotePtr.toString(RemotePtr.NULL));
        assertEquals("2:0x40", RemotePtr.toString(RemotePtr.of(2, 0x40)));
    }
}
