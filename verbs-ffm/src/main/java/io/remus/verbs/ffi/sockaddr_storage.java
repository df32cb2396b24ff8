package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct sockaddr_storage {
 *     sa_family_t   ss_family;
 *     char          __ss_padding[118];
 *     unsigned long __ss_align;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class sockaddr_storage {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("ss_family"),
            MemoryLayout.sequenceLayout(118, JAVA_BYTE).withName("__ss_padding"),
            JAVA_LONG.withName("__ss_align")
    ).withName("sockaddr_storage");

    private sockaddr_storage() {
    }

    /** {@return the layout of {@code struct sockaddr_storage}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct sockaddr_storage)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code ss_family}. */
    public static final long ss_family$OFFSET = 0;
    /** Offset of {@code __ss_padding}. */
    public static final long __ss_padding$OFFSET = 2;
    /** Offset of {@code __ss_align}. */
    public static final long __ss_align$OFFSET = 120;

    /** @param s a {@code struct sockaddr_storage} @return {@code s->ss_family} */
    public static short ss_family(MemorySegment s) {
        return s.get(JAVA_SHORT, ss_family$OFFSET);
    }

    /** @param s a {@code struct sockaddr_storage} @param v the value for {@code s->ss_family} */
    public static void ss_family(MemorySegment s, short v) {
        s.set(JAVA_SHORT, ss_family$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_storage} @return a slice over {@code s->__ss_padding} (118 bytes) */
    public static MemorySegment __ss_padding(MemorySegment s) {
        return s.asSlice(__ss_padding$OFFSET, 118);
    }

    /** @param s a {@code struct sockaddr_storage} @param v copied into {@code s->__ss_padding} (118 bytes) */
    public static void __ss_padding(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, __ss_padding$OFFSET, 118);
    }

    /** @param s a {@code struct sockaddr_storage} @return {@code s->__ss_align} */
    public static long __ss_align(MemorySegment s) {
        return s.get(JAVA_LONG, __ss_align$OFFSET);
    }

    /** @param s a {@code struct sockaddr_storage} @param v the value for {@code s->__ss_align} */
    public static void __ss_align(MemorySegment s, long v) {
        s.set(JAVA_LONG, __ss_align$OFFSET, v);
    }
}
