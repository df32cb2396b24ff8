package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_sge {
 *     uint64_t addr;
 *     uint32_t length;
 *     uint32_t lkey;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_sge {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("length"),
            JAVA_INT.withName("lkey")
    ).withName("ibv_sge");

    private ibv_sge() {
    }

    /** {@return the layout of {@code struct ibv_sge}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_sge)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code addr}. */
    public static final long addr$OFFSET = 0;
    /** Offset of {@code length}. */
    public static final long length$OFFSET = 8;
    /** Offset of {@code lkey}. */
    public static final long lkey$OFFSET = 12;

    /** @param s a {@code struct ibv_sge} @return {@code s->addr} */
    public static long addr(MemorySegment s) {
        return s.get(JAVA_LONG, addr$OFFSET);
    }

    /** @param s a {@code struct ibv_sge} @param v the value for {@code s->addr} */
    public static void addr(MemorySegment s, long v) {
        s.set(JAVA_LONG, addr$OFFSET, v);
    }

    /** @param s a {@code struct ibv_sge} @return {@code s->length} */
    public static int length(MemorySegment s) {
        return s.get(JAVA_INT, length$OFFSET);
    }

    /** @param s a {@code struct ibv_sge} @param v the value for {@code s->length} */
    public static void length(MemorySegment s, int v) {
        s.set(JAVA_INT, length$OFFSET, v);
    }

    /** @param s a {@code struct ibv_sge} @return {@code s->lkey} */
    public static int lkey(MemorySegment s) {
        return s.get(JAVA_INT, lkey$OFFSET);
    }

    /** @param s a {@code struct ibv_sge} @param v the value for {@code s->lkey} */
    public static void lkey(MemorySegment s, int v) {
        s.set(JAVA_INT, lkey$OFFSET, v);
    }
}
