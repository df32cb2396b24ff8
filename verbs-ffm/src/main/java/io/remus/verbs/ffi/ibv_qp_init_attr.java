package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_qp_init_attr {
 *     void               *qp_context;
 *     struct ibv_cq           *send_cq;
 *     struct ibv_cq           *recv_cq;
 *     struct ibv_srq           *srq;
 *     struct ibv_qp_cap    cap;
 *     enum ibv_qp_type    qp_type;
 *     int            sq_sig_all;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_qp_init_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("qp_context"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            ibv_qp_cap.layout().withName("cap"),
            JAVA_INT.withName("qp_type"),
            JAVA_INT.withName("sq_sig_all"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_qp_init_attr");

    private ibv_qp_init_attr() {
    }

    /** {@return the layout of {@code struct ibv_qp_init_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_qp_init_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code qp_context}. */
    public static final long qp_context$OFFSET = 0;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->qp_context} */
    public static MemorySegment qp_context(MemorySegment s) {
        return s.get(ADDRESS, qp_context$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->qp_context} */
    public static void qp_context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, qp_context$OFFSET, v);
    }

    /** Offset of {@code send_cq}. */
    public static final long send_cq$OFFSET = 8;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->send_cq} */
    public static MemorySegment send_cq(MemorySegment s) {
        return s.get(ADDRESS, send_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->send_cq} */
    public static void send_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, send_cq$OFFSET, v);
    }

    /** Offset of {@code recv_cq}. */
    public static final long recv_cq$OFFSET = 16;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->recv_cq} */
    public static MemorySegment recv_cq(MemorySegment s) {
        return s.get(ADDRESS, recv_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->recv_cq} */
    public static void recv_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, recv_cq$OFFSET, v);
    }

    /** Offset of {@code srq}. */
    public static final long srq$OFFSET = 24;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->srq} */
    public static MemorySegment srq(MemorySegment s) {
        return s.get(ADDRESS, srq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->srq} */
    public static void srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, srq$OFFSET, v);
    }

    /** Offset of {@code cap}. */
    public static final long cap$OFFSET = 32;

    /** @param s a {@code struct ibv_qp_init_attr} @return the nested struct {@code s->cap}, as a slice of {@code s} */
    public static MemorySegment cap(MemorySegment s) {
        return s.asSlice(cap$OFFSET, 20);
    }

    /** Offset of {@code qp_type}. */
    public static final long qp_type$OFFSET = 52;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->qp_type} */
    public static int qp_type(MemorySegment s) {
        return s.get(JAVA_INT, qp_type$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->qp_type} */
    public static void qp_type(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_type$OFFSET, v);
    }

    /** Offset of {@code sq_sig_all}. */
    public static final long sq_sig_all$OFFSET = 56;

    /** @param s a {@code struct ibv_qp_init_attr} @return {@code s->sq_sig_all} */
    public static int sq_sig_all(MemorySegment s) {
        return s.get(JAVA_INT, sq_sig_all$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_init_attr} @param v the value for {@code s->sq_sig_all} */
    public static void sq_sig_all(MemorySegment s, int v) {
        s.set(JAVA_INT, sq_sig_all$OFFSET, v);
    }
}
