package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_cm_id {
 *     struct ibv_context        *verbs;
 *     struct rdma_event_channel *channel;
 *     void                      *context;
 *     struct ibv_qp             *qp;
 *     struct rdma_route          route;
 *     enum rdma_port_space       ps;
 *     uint8_t                    port_num;
 *     struct rdma_cm_event      *event;
 *     struct ibv_comp_channel   *send_cq_channel;
 *     struct ibv_cq             *send_cq;
 *     struct ibv_comp_channel   *recv_cq_channel;
 *     struct ibv_cq             *recv_cq;
 *     struct ibv_srq            *srq;
 *     struct ibv_pd             *pd;
 *     enum ibv_qp_type           qp_type;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_cm_id {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("verbs"),
            ADDRESS.withName("channel"),
            ADDRESS.withName("context"),
            ADDRESS.withName("qp"),
            rdma_route.layout().withName("route"),
            JAVA_INT.withName("ps"),
            JAVA_BYTE.withName("port_num"),
            MemoryLayout.paddingLayout(3),
            ADDRESS.withName("event"),
            ADDRESS.withName("send_cq_channel"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq_channel"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            ADDRESS.withName("pd"),
            JAVA_INT.withName("qp_type"),
            MemoryLayout.paddingLayout(4)
    ).withName("rdma_cm_id");

    private rdma_cm_id() {
    }

    /** {@return the layout of {@code struct rdma_cm_id}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_cm_id)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code verbs}. */
    public static final long verbs$OFFSET = 0;
    /** Offset of {@code channel}. */
    public static final long channel$OFFSET = 8;
    /** Offset of {@code context}. */
    public static final long context$OFFSET = 16;
    /** Offset of {@code qp}. */
    public static final long qp$OFFSET = 24;
    /** Offset of {@code route}. */
    public static final long route$OFFSET = 32;
    /** Offset of {@code ps}. */
    public static final long ps$OFFSET = 344;
    /** Offset of {@code port_num}. */
    public static final long port_num$OFFSET = 348;
    /** Offset of {@code event}. */
    public static final long event$OFFSET = 352;
    /** Offset of {@code send_cq_channel}. */
    public static final long send_cq_channel$OFFSET = 360;
    /** Offset of {@code send_cq}. */
    public static final long send_cq$OFFSET = 368;
    /** Offset of {@code recv_cq_channel}. */
    public static final long recv_cq_channel$OFFSET = 376;
    /** Offset of {@code recv_cq}. */
    public static final long recv_cq$OFFSET = 384;
    /** Offset of {@code srq}. */
    public static final long srq$OFFSET = 392;
    /** Offset of {@code pd}. */
    public static final long pd$OFFSET = 400;
    /** Offset of {@code qp_type}. */
    public static final long qp_type$OFFSET = 408;

    /** @param s a {@code struct rdma_cm_id} @return {@code s->verbs} */
    public static MemorySegment verbs(MemorySegment s) {
        return s.get(ADDRESS, verbs$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->verbs} */
    public static void verbs(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, verbs$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->channel} */
    public static MemorySegment channel(MemorySegment s) {
        return s.get(ADDRESS, channel$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->channel} */
    public static void channel(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, channel$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->qp} */
    public static MemorySegment qp(MemorySegment s) {
        return s.get(ADDRESS, qp$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->qp} */
    public static void qp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, qp$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return a slice over {@code s->route} (312 bytes) */
    public static MemorySegment route(MemorySegment s) {
        return s.asSlice(route$OFFSET, 312);
    }

    /** @param s a {@code struct rdma_cm_id} @param v copied into {@code s->route} (312 bytes) */
    public static void route(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, route$OFFSET, 312);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->ps} */
    public static int ps(MemorySegment s) {
        return s.get(JAVA_INT, ps$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->ps} */
    public static void ps(MemorySegment s, int v) {
        s.set(JAVA_INT, ps$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->port_num} */
    public static byte port_num(MemorySegment s) {
        return s.get(JAVA_BYTE, port_num$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->port_num} */
    public static void port_num(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, port_num$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->event} */
    public static MemorySegment event(MemorySegment s) {
        return s.get(ADDRESS, event$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->event} */
    public static void event(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, event$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->send_cq_channel} */
    public static MemorySegment send_cq_channel(MemorySegment s) {
        return s.get(ADDRESS, send_cq_channel$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->send_cq_channel} */
    public static void send_cq_channel(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, send_cq_channel$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->send_cq} */
    public static MemorySegment send_cq(MemorySegment s) {
        return s.get(ADDRESS, send_cq$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->send_cq} */
    public static void send_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, send_cq$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->recv_cq_channel} */
    public static MemorySegment recv_cq_channel(MemorySegment s) {
        return s.get(ADDRESS, recv_cq_channel$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->recv_cq_channel} */
    public static void recv_cq_channel(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, recv_cq_channel$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->recv_cq} */
    public static MemorySegment recv_cq(MemorySegment s) {
        return s.get(ADDRESS, recv_cq$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->recv_cq} */
    public static void recv_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, recv_cq$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->srq} */
    public static MemorySegment srq(MemorySegment s) {
        return s.get(ADDRESS, srq$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->srq} */
    public static void srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, srq$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->pd} */
    public static MemorySegment pd(MemorySegment s) {
        return s.get(ADDRESS, pd$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->pd} */
    public static void pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, pd$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_id} @return {@code s->qp_type} */
    public static int qp_type(MemorySegment s) {
        return s.get(JAVA_INT, qp_type$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_id} @param v the value for {@code s->qp_type} */
    public static void qp_type(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_type$OFFSET, v);
    }
}
