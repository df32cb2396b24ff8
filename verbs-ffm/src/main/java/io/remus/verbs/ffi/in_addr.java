package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct in_addr {
 *     in_addr_t s_addr;
 * }
 * }
 *
 * <p>{@code s_addr} is in network byte order: {@link #s_addr(MemorySegment)} returns the four
 * bytes as C sees them, not a host-order number.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class in_addr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("s_addr")
    ).withName("in_addr");

    private in_addr() {
    }

    /** {@return the layout of {@code struct in_addr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct in_addr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code s_addr}. */
    public static final long s_addr$OFFSET = 0;

    /** @param s a {@code struct in_addr} @return {@code s->s_addr} */
    public static int s_addr(MemorySegment s) {
        return s.get(JAVA_INT, s_addr$OFFSET);
    }

    /** @param s a {@code struct in_addr} @param v the value for {@code s->s_addr} */
    public static void s_addr(MemorySegment s, int v) {
        s.set(JAVA_INT, s_addr$OFFSET, v);
    }
}
