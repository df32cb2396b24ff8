package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_qp {
 *     struct ibv_context     *context;
 *     void               *qp_context;
 *     struct ibv_pd           *pd;
 *     struct ibv_cq           *send_cq;
 *     struct ibv_cq           *recv_cq;
 *     struct ibv_srq           *srq;
 *     uint32_t        handle;
 *     uint32_t        qp_num;
 *     enum ibv_qp_state       state;
 *     enum ibv_qp_type    qp_type;
 *     pthread_mutex_t        mutex;
 *     pthread_cond_t        cond;
 *     uint32_t        events_completed;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_qp {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("qp_context"),
            ADDRESS.withName("pd"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("state"),
            JAVA_INT.withName("qp_type"),
            MemoryLayout.sequenceLayout(40, JAVA_BYTE).withByteAlignment(8).withName("mutex"),
            MemoryLayout.sequenceLayout(48, JAVA_BYTE).withByteAlignment(8).withName("cond"),
            JAVA_INT.withName("events_completed"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_qp");

    private ibv_qp() {
    }

    /** {@return the layout of {@code struct ibv_qp}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_qp)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_qp} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code qp_context}. */
    public static final long qp_context$OFFSET = 8;

    /** @param s a {@code struct ibv_qp} @return {@code s->qp_context} */
    public static MemorySegment qp_context(MemorySegment s) {
        return s.get(ADDRESS, qp_context$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->qp_context} */
    public static void qp_context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, qp_context$OFFSET, v);
    }

    /** Offset of {@code pd}. */
    public static final long pd$OFFSET = 16;

    /** @param s a {@code struct ibv_qp} @return {@code s->pd} */
    public static MemorySegment pd(MemorySegment s) {
        return s.get(ADDRESS, pd$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->pd} */
    public static void pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, pd$OFFSET, v);
    }

    /** Offset of {@code send_cq}. */
    public static final long send_cq$OFFSET = 24;

    /** @param s a {@code struct ibv_qp} @return {@code s->send_cq} */
    public static MemorySegment send_cq(MemorySegment s) {
        return s.get(ADDRESS, send_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->send_cq} */
    public static void send_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, send_cq$OFFSET, v);
    }

    /** Offset of {@code recv_cq}. */
    public static final long recv_cq$OFFSET = 32;

    /** @param s a {@code struct ibv_qp} @return {@code s->recv_cq} */
    public static MemorySegment recv_cq(MemorySegment s) {
        return s.get(ADDRESS, recv_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->recv_cq} */
    public static void recv_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, recv_cq$OFFSET, v);
    }

    /** Offset of {@code srq}. */
    public static final long srq$OFFSET = 40;

    /** @param s a {@code struct ibv_qp} @return {@code s->srq} */
    public static MemorySegment srq(MemorySegment s) {
        return s.get(ADDRESS, srq$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->srq} */
    public static void srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, srq$OFFSET, v);
    }

    /** Offset of {@code handle}. */
    public static final long handle$OFFSET = 48;

    /** @param s a {@code struct ibv_qp} @return {@code s->handle} */
    public static int handle(MemorySegment s) {
        return s.get(JAVA_INT, handle$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->handle} */
    public static void handle(MemorySegment s, int v) {
        s.set(JAVA_INT, handle$OFFSET, v);
    }

    /** Offset of {@code qp_num}. */
    public static final long qp_num$OFFSET = 52;

    /** @param s a {@code struct ibv_qp} @return {@code s->qp_num} */
    public static int qp_num(MemorySegment s) {
        return s.get(JAVA_INT, qp_num$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->qp_num} */
    public static void qp_num(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_num$OFFSET, v);
    }

    /** Offset of {@code state}. */
    public static final long state$OFFSET = 56;

    /** @param s a {@code struct ibv_qp} @return {@code s->state} */
    public static int state(MemorySegment s) {
        return s.get(JAVA_INT, state$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->state} */
    public static void state(MemorySegment s, int v) {
        s.set(JAVA_INT, state$OFFSET, v);
    }

    /** Offset of {@code qp_type}. */
    public static final long qp_type$OFFSET = 60;

    /** @param s a {@code struct ibv_qp} @return {@code s->qp_type} */
    public static int qp_type(MemorySegment s) {
        return s.get(JAVA_INT, qp_type$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->qp_type} */
    public static void qp_type(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_type$OFFSET, v);
    }

    /** Offset of {@code mutex}. */
    public static final long mutex$OFFSET = 64;

    /** @param s a {@code struct ibv_qp} @return the opaque bytes of {@code s->mutex}, as a slice of {@code s} */
    public static MemorySegment mutex(MemorySegment s) {
        return s.asSlice(mutex$OFFSET, 40);
    }

    /** Offset of {@code cond}. */
    public static final long cond$OFFSET = 104;

    /** @param s a {@code struct ibv_qp} @return the opaque bytes of {@code s->cond}, as a slice of {@code s} */
    public static MemorySegment cond(MemorySegment s) {
        return s.asSlice(cond$OFFSET, 48);
    }

    /** Offset of {@code events_completed}. */
    public static final long events_completed$OFFSET = 152;

    /** @param s a {@code struct ibv_qp} @return {@code s->events_completed} */
    public static int events_completed(MemorySegment s) {
        return s.get(JAVA_INT, events_completed$OFFSET);
    }

    /** @param s a {@code struct ibv_qp} @param v the value for {@code s->events_completed} */
    public static void events_completed(MemorySegment s, int v) {
        s.set(JAVA_INT, events_completed$OFFSET, v);
    }
}
