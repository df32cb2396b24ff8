package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_conn_param {
 *     const void *private_data;
 *     uint8_t     private_data_len;
 *     uint8_t     responder_resources;
 *     uint8_t     initiator_depth;
 *     uint8_t     flow_control;
 *     uint8_t     retry_count;        // ignored when accepting
 *     uint8_t     rnr_retry_count;
 *     uint8_t     srq;                // this and qp_num: ignored if the id has a QP
 *     uint32_t    qp_num;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_conn_param {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            JAVA_BYTE.withName("responder_resources"),
            JAVA_BYTE.withName("initiator_depth"),
            JAVA_BYTE.withName("flow_control"),
            JAVA_BYTE.withName("retry_count"),
            JAVA_BYTE.withName("rnr_retry_count"),
            JAVA_BYTE.withName("srq"),
            MemoryLayout.paddingLayout(1),
            JAVA_INT.withName("qp_num"),
            MemoryLayout.paddingLayout(4)
    ).withName("rdma_conn_param");

    private rdma_conn_param() {
    }

    /** {@return the layout of {@code struct rdma_conn_param}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_conn_param)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code private_data}. */
    public static final long private_data$OFFSET = 0;
    /** Offset of {@code private_data_len}. */
    public static final long private_data_len$OFFSET = 8;
    /** Offset of {@code responder_resources}. */
    public static final long responder_resources$OFFSET = 9;
    /** Offset of {@code initiator_depth}. */
    public static final long initiator_depth$OFFSET = 10;
    /** Offset of {@code flow_control}. */
    public static final long flow_control$OFFSET = 11;
    /** Offset of {@code retry_count}. */
    public static final long retry_count$OFFSET = 12;
    /** Offset of {@code rnr_retry_count}. */
    public static final long rnr_retry_count$OFFSET = 13;
    /** Offset of {@code srq}. */
    public static final long srq$OFFSET = 14;
    /** Offset of {@code qp_num}. */
    public static final long qp_num$OFFSET = 16;

    /** @param s a {@code struct rdma_conn_param} @return {@code s->private_data} */
    public static MemorySegment private_data(MemorySegment s) {
        return s.get(ADDRESS, private_data$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->private_data} */
    public static void private_data(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, private_data$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->private_data_len} */
    public static byte private_data_len(MemorySegment s) {
        return s.get(JAVA_BYTE, private_data_len$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->private_data_len} */
    public static void private_data_len(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, private_data_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->responder_resources} */
    public static byte responder_resources(MemorySegment s) {
        return s.get(JAVA_BYTE, responder_resources$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->responder_resources} */
    public static void responder_resources(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, responder_resources$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->initiator_depth} */
    public static byte initiator_depth(MemorySegment s) {
        return s.get(JAVA_BYTE, initiator_depth$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->initiator_depth} */
    public static void initiator_depth(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, initiator_depth$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->flow_control} */
    public static byte flow_control(MemorySegment s) {
        return s.get(JAVA_BYTE, flow_control$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->flow_control} */
    public static void flow_control(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, flow_control$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->retry_count} */
    public static byte retry_count(MemorySegment s) {
        return s.get(JAVA_BYTE, retry_count$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->retry_count} */
    public static void retry_count(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, retry_count$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->rnr_retry_count} */
    public static byte rnr_retry_count(MemorySegment s) {
        return s.get(JAVA_BYTE, rnr_retry_count$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->rnr_retry_count} */
    public static void rnr_retry_count(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, rnr_retry_count$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->srq} */
    public static byte srq(MemorySegment s) {
        return s.get(JAVA_BYTE, srq$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->srq} */
    public static void srq(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, srq$OFFSET, v);
    }

    /** @param s a {@code struct rdma_conn_param} @return {@code s->qp_num} */
    public static int qp_num(MemorySegment s) {
        return s.get(JAVA_INT, qp_num$OFFSET);
    }

    /** @param s a {@code struct rdma_conn_param} @param v the value for {@code s->qp_num} */
    public static void qp_num(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_num$OFFSET, v);
    }
}
