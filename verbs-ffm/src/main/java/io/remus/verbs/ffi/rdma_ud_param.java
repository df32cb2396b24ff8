package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_ud_param {
 *     const void        *private_data;
 *     uint8_t            private_data_len;
 *     struct ibv_ah_attr ah_attr;
 *     uint32_t           qp_num;
 *     uint32_t           qkey;
 * }
 * }
 *
 * <p>{@code ah_attr} is a {@code struct ibv_ah_attr} embedded by value ({@link ibv_ah_attr}'s layout, whose
 * accessors apply).
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_ud_param {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            MemoryLayout.paddingLayout(7),
            ibv_ah_attr.layout().withName("ah_attr"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("qkey")
    ).withName("rdma_ud_param");

    private rdma_ud_param() {
    }

    /** {@return the layout of {@code struct rdma_ud_param}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_ud_param)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code private_data}. */
    public static final long private_data$OFFSET = 0;
    /** Offset of {@code private_data_len}. */
    public static final long private_data_len$OFFSET = 8;
    /** Offset of {@code ah_attr}. */
    public static final long ah_attr$OFFSET = 16;
    /** Offset of {@code qp_num}. */
    public static final long qp_num$OFFSET = 48;
    /** Offset of {@code qkey}. */
    public static final long qkey$OFFSET = 52;

    /** @param s a {@code struct rdma_ud_param} @return {@code s->private_data} */
    public static MemorySegment private_data(MemorySegment s) {
        return s.get(ADDRESS, private_data$OFFSET);
    }

    /** @param s a {@code struct rdma_ud_param} @param v the value for {@code s->private_data} */
    public static void private_data(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, private_data$OFFSET, v);
    }

    /** @param s a {@code struct rdma_ud_param} @return {@code s->private_data_len} */
    public static byte private_data_len(MemorySegment s) {
        return s.get(JAVA_BYTE, private_data_len$OFFSET);
    }

    /** @param s a {@code struct rdma_ud_param} @param v the value for {@code s->private_data_len} */
    public static void private_data_len(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, private_data_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_ud_param} @return a slice over {@code s->ah_attr} (32 bytes) */
    public static MemorySegment ah_attr(MemorySegment s) {
        return s.asSlice(ah_attr$OFFSET, 32);
    }

    /** @param s a {@code struct rdma_ud_param} @param v copied into {@code s->ah_attr} (32 bytes) */
    public static void ah_attr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, ah_attr$OFFSET, 32);
    }

    /** @param s a {@code struct rdma_ud_param} @return {@code s->qp_num} */
    public static int qp_num(MemorySegment s) {
        return s.get(JAVA_INT, qp_num$OFFSET);
    }

    /** @param s a {@code struct rdma_ud_param} @param v the value for {@code s->qp_num} */
    public static void qp_num(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_num$OFFSET, v);
    }

    /** @param s a {@code struct rdma_ud_param} @return {@code s->qkey} */
    public static int qkey(MemorySegment s) {
        return s.get(JAVA_INT, qkey$OFFSET);
    }

    /** @param s a {@code struct rdma_ud_param} @param v the value for {@code s->qkey} */
    public static void qkey(MemorySegment s, int v) {
        s.set(JAVA_INT, qkey$OFFSET, v);
    }
}
