package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_qp_cap {
 *     uint32_t        max_send_wr;
 *     uint32_t        max_recv_wr;
 *     uint32_t        max_send_sge;
 *     uint32_t        max_recv_sge;
 *     uint32_t        max_inline_data;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_qp_cap {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("max_send_wr"),
            JAVA_INT.withName("max_recv_wr"),
            JAVA_INT.withName("max_send_sge"),
            JAVA_INT.withName("max_recv_sge"),
            JAVA_INT.withName("max_inline_data")
    ).withName("ibv_qp_cap");

    private ibv_qp_cap() {
    }

    /** {@return the layout of {@code struct ibv_qp_cap}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_qp_cap)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code max_send_wr}. */
    public static final long max_send_wr$OFFSET = 0;

    /** @param s a {@code struct ibv_qp_cap} @return {@code s->max_send_wr} */
    public static int max_send_wr(MemorySegment s) {
        return s.get(JAVA_INT, max_send_wr$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_cap} @param v the value for {@code s->max_send_wr} */
    public static void max_send_wr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_send_wr$OFFSET, v);
    }

    /** Offset of {@code max_recv_wr}. */
    public static final long max_recv_wr$OFFSET = 4;

    /** @param s a {@code struct ibv_qp_cap} @return {@code s->max_recv_wr} */
    public static int max_recv_wr(MemorySegment s) {
        return s.get(JAVA_INT, max_recv_wr$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_cap} @param v the value for {@code s->max_recv_wr} */
    public static void max_recv_wr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_recv_wr$OFFSET, v);
    }

    /** Offset of {@code max_send_sge}. */
    public static final long max_send_sge$OFFSET = 8;

    /** @param s a {@code struct ibv_qp_cap} @return {@code s->max_send_sge} */
    public static int max_send_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_send_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_cap} @param v the value for {@code s->max_send_sge} */
    public static void max_send_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_send_sge$OFFSET, v);
    }

    /** Offset of {@code max_recv_sge}. */
    public static final long max_recv_sge$OFFSET = 12;

    /** @param s a {@code struct ibv_qp_cap} @return {@code s->max_recv_sge} */
    public static int max_recv_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_recv_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_cap} @param v the value for {@code s->max_recv_sge} */
    public static void max_recv_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_recv_sge$OFFSET, v);
    }

    /** Offset of {@code max_inline_data}. */
    public static final long max_inline_data$OFFSET = 16;

    /** @param s a {@code struct ibv_qp_cap} @return {@code s->max_inline_data} */
    public static int max_inline_data(MemorySegment s) {
        return s.get(JAVA_INT, max_inline_data$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_cap} @param v the value for {@code s->max_inline_data} */
    public static void max_inline_data(MemorySegment s, int v) {
        s.set(JAVA_INT, max_inline_data$OFFSET, v);
    }
}
