package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_srq_attr {
 *     uint32_t        max_wr;
 *     uint32_t        max_sge;
 *     uint32_t        srq_limit;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_srq_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("max_wr"),
            JAVA_INT.withName("max_sge"),
            JAVA_INT.withName("srq_limit")
    ).withName("ibv_srq_attr");

    private ibv_srq_attr() {
    }

    /** {@return the layout of {@code struct ibv_srq_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_srq_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code max_wr}. */
    public static final long max_wr$OFFSET = 0;

    /** @param s a {@code struct ibv_srq_attr} @return {@code s->max_wr} */
    public static int max_wr(MemorySegment s) {
        return s.get(JAVA_INT, max_wr$OFFSET);
    }

    /** @param s a {@code struct ibv_srq_attr} @param v the value for {@code s->max_wr} */
    public static void max_wr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_wr$OFFSET, v);
    }

    /** Offset of {@code max_sge}. */
    public static final long max_sge$OFFSET = 4;

    /** @param s a {@code struct ibv_srq_attr} @return {@code s->max_sge} */
    public static int max_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_srq_attr} @param v the value for {@code s->max_sge} */
    public static void max_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_sge$OFFSET, v);
    }

    /** Offset of {@code srq_limit}. */
    public static final long srq_limit$OFFSET = 8;

    /** @param s a {@code struct ibv_srq_attr} @return {@code s->srq_limit} */
    public static int srq_limit(MemorySegment s) {
        return s.get(JAVA_INT, srq_limit$OFFSET);
    }

    /** @param s a {@code struct ibv_srq_attr} @param v the value for {@code s->srq_limit} */
    public static void srq_limit(MemorySegment s, int v) {
        s.set(JAVA_INT, srq_limit$OFFSET, v);
    }
}
