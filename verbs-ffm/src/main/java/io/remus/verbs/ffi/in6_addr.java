package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct in6_addr {
 *     union {
 *         uint8_t  __u6_addr8[16];
 *         uint16_t __u6_addr16[8];
 *         uint32_t __u6_addr32[4];
 *     } __in6_u;
 * }
 * }
 *
 * <p>The address bytes are in network byte order; {@link #s6_addr(MemorySegment)} is C's
 * {@code s6_addr} macro.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class in6_addr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.unionLayout(
                    MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("__u6_addr8"),
                    MemoryLayout.sequenceLayout(8, JAVA_SHORT).withName("__u6_addr16"),
                    MemoryLayout.sequenceLayout(4, JAVA_INT).withName("__u6_addr32")
            ).withName("__in6_u")
    ).withName("in6_addr");

    private in6_addr() {
    }

    /** {@return the layout of {@code struct in6_addr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct in6_addr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code __in6_u}. */
    public static final long __in6_u$OFFSET = 0;

    /** @param s a {@code struct in6_addr} @return a slice over {@code s->__in6_u} (16 bytes) */
    public static MemorySegment __in6_u(MemorySegment s) {
        return s.asSlice(__in6_u$OFFSET, 16);
    }

    /** @param s a {@code struct in6_addr} @param v copied into {@code s->__in6_u} (16 bytes) */
    public static void __in6_u(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, __in6_u$OFFSET, 16);
    }

    /** @param s a {@code struct in6_addr} @return a slice over the 16 address bytes ({@code s->s6_addr}) */
    public static MemorySegment s6_addr(MemorySegment s) {
        return s.asSlice(__in6_u$OFFSET, 16);
    }
}
