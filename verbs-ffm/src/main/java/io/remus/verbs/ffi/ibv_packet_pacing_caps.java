package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_packet_pacing_caps {
 *     uint32_t qp_rate_limit_min;
 *     uint32_t qp_rate_limit_max;
 *     uint32_t supported_qpts;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_packet_pacing_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("qp_rate_limit_min"),
            JAVA_INT.withName("qp_rate_limit_max"),
            JAVA_INT.withName("supported_qpts")
    ).withName("ibv_packet_pacing_caps");

    private ibv_packet_pacing_caps() {
    }

    /** {@return the layout of {@code struct ibv_packet_pacing_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_packet_pacing_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code qp_rate_limit_min}. */
    public static final long qp_rate_limit_min$OFFSET = 0;

    /** @param s a {@code struct ibv_packet_pacing_caps} @return {@code s->qp_rate_limit_min} */
    public static int qp_rate_limit_min(MemorySegment s) {
        return s.get(JAVA_INT, qp_rate_limit_min$OFFSET);
    }

    /** @param s a {@code struct ibv_packet_pacing_caps} @param v the value for {@code s->qp_rate_limit_min} */
    public static void qp_rate_limit_min(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_rate_limit_min$OFFSET, v);
    }

    /** Offset of {@code qp_rate_limit_max}. */
    public static final long qp_rate_limit_max$OFFSET = 4;

    /** @param s a {@code struct ibv_packet_pacing_caps} @return {@code s->qp_rate_limit_max} */
    public static int qp_rate_limit_max(MemorySegment s) {
        return s.get(JAVA_INT, qp_rate_limit_max$OFFSET);
    }

    /** @param s a {@code struct ibv_packet_pacing_caps} @param v the value for {@code s->qp_rate_limit_max} */
    public static void qp_rate_limit_max(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_rate_limit_max$OFFSET, v);
    }

    /** Offset of {@code supported_qpts}. */
    public static final long supported_qpts$OFFSET = 8;

    /** @param s a {@code struct ibv_packet_pacing_caps} @return {@code s->supported_qpts} */
    public static int supported_qpts(MemorySegment s) {
        return s.get(JAVA_INT, supported_qpts$OFFSET);
    }

    /** @param s a {@code struct ibv_packet_pacing_caps} @param v the value for {@code s->supported_qpts} */
    public static void supported_qpts(MemorySegment s, int v) {
        s.set(JAVA_INT, supported_qpts$OFFSET, v);
    }
}
