package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A range of memory that pointers address lies inside the 48-bit address space, never wrapping it. */
class RegionBoundsTest {
    private static final long TOP = 1L << RemotePtr.ADDRESS_BITS;

    @Test
    void shouldRefuseRangesPastTwoToTheFortyEighthOrWrapping() {
        long[][] bad = {{TOP, 8}, {TOP - 8, 16}, {TOP - 1, 2}, {-4096, 4096}, {Long.MAX_VALUE, 1}, {4096, Long.MAX_VALUE},
                {0x7f00_0000_0000L, -8}, {4096, 0}, {4096, Long.MIN_VALUE}, {Long.MIN_VALUE, 8}};
        for (long[] r : bad) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> RemotePtr.requireRange(r[0], r[1]),
                    r[0] + "+" + r[1]);
            assertTrue(e.getMessage().contains(Long.toHexString(r[0])) && e.getMessage().contains(Long.toString(r[1])),
                    e.getMessage());
            assertThrows(BadArgumentException.class, () -> new RemoteRegion(1, r[0], r[1], 7), r[0] + "+" + r[1]);
        }
        RemotePtr.requireRange(TOP - 8, 8);
        RemotePtr.requireRange(0, TOP);
        assertEquals(TOP - 8, new RemoteRegion(RemotePtr.MAX_NODE_ID, TOP - 8, 8, 1).address());
        BadArgumentException node = assertThrows(BadArgumentException.class, () -> new RemoteRegion(1 << 16, 4096, 8, 1));
        assertTrue(node.getMessage().contains("65536"), node.getMessage());
        assertThrows(BadArgumentException.class, () -> new RemoteRegion(-1, 4096, 8, 1));
    }
}
