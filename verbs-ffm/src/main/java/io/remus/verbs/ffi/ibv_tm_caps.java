package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_tm_caps {
 *     uint32_t max_rndv_hdr_size;
 *     uint32_t max_num_tags;
 *     uint32_t flags;
 *     uint32_t max_ops;
 *     uint32_t max_sge;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_tm_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("max_rndv_hdr_size"),
            JAVA_INT.withName("max_num_tags"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("max_ops"),
            JAVA_INT.withName("max_sge")
    ).withName("ibv_tm_caps");

    private ibv_tm_caps() {
    }

    /** {@return the layout of {@code struct ibv_tm_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_tm_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code max_rndv_hdr_size}. */
    public static final long max_rndv_hdr_size$OFFSET = 0;

    /** @param s a {@code struct ibv_tm_caps} @return {@code s->max_rndv_hdr_size} */
    public static int max_rndv_hdr_size(MemorySegment s) {
        return s.get(JAVA_INT, max_rndv_hdr_size$OFFSET);
    }

    /** @param s a {@code struct ibv_tm_caps} @param v the value for {@code s->max_rndv_hdr_size} */
    public static void max_rndv_hdr_size(MemorySegment s, int v) {
        s.set(JAVA_INT, max_rndv_hdr_size$OFFSET, v);
    }

    /** Offset of {@code max_num_tags}. */
    public static final long max_num_tags$OFFSET = 4;

    /** @param s a {@code struct ibv_tm_caps} @return {@code s->max_num_tags} */
    public static int max_num_tags(MemorySegment s) {
        return s.get(JAVA_INT, max_num_tags$OFFSET);
    }

    /** @param s a {@code struct ibv_tm_caps} @param v the value for {@code s->max_num_tags} */
    public static void max_num_tags(MemorySegment s, int v) {
        s.set(JAVA_INT, max_num_tags$OFFSET, v);
    }

    /** Offset of {@code flags}. */
    public static final long flags$OFFSET = 8;

    /** @param s a {@code struct ibv_tm_caps} @return {@code s->flags} */
    public static int flags(MemorySegment s) {
        return s.get(JAVA_INT, flags$OFFSET);
    }

    /** @param s a {@code struct ibv_tm_caps} @param v the value for {@code s->flags} */
    public static void flags(MemorySegment s, int v) {
        s.set(JAVA_INT, flags$OFFSET, v);
    }

    /** Offset of {@code max_ops}. */
    public static final long max_ops$OFFSET = 12;

    /** @param s a {@code struct ibv_tm_caps} @return {@code s->max_ops} */
    public static int max_ops(MemorySegment s) {
        return s.get(JAVA_INT, max_ops$OFFSET);
    }

    /** @param s a {@code struct ibv_tm_caps} @param v the value for {@code s->max_ops} */
    public static void max_ops(MemorySegment s, int v) {
        s.set(JAVA_INT, max_ops$OFFSET, v);
    }

    /** Offset of {@code max_sge}. */
    public static final long max_sge$OFFSET = 16;

    /** @param s a {@code struct ibv_tm_caps} @return {@code s->max_sge} */
    public static int max_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_tm_caps} @param v the value for {@code s->max_sge} */
    public static void max_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_sge$OFFSET, v);
    }
}
