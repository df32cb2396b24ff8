package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct sockaddr {
 *     sa_family_t sa_family;
 *     char        sa_data[14];
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class sockaddr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("sa_family"),
            MemoryLayout.sequenceLayout(14, JAVA_BYTE).withName("sa_data")
    ).withName("sockaddr");

    private sockaddr() {
    }

    /** {@return the layout of {@code struct sockaddr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct sockaddr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code sa_family}. */
    public static final long sa_family$OFFSET = 0;
    /** Offset of {@code sa_data}. */
    public static final long sa_data$OFFSET = 2;

    /** @param s a {@code struct sockaddr} @return {@code s->sa_family} */
    public static short sa_family(MemorySegment s) {
        return s.get(JAVA_SHORT, sa_family$OFFSET);
    }

    /** @param s a {@code struct sockaddr} @param v the value for {@code s->sa_family} */
    public static void sa_family(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sa_family$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr} @return a slice over {@code s->sa_data} (14 bytes) */
    public static MemorySegment sa_data(MemorySegment s) {
        return s.asSlice(sa_data$OFFSET, 14);
    }

    /** @param s a {@code struct sockaddr} @param v copied into {@code s->sa_data} (14 bytes) */
    public static void sa_data(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, sa_data$OFFSET, 14);
    }
}
