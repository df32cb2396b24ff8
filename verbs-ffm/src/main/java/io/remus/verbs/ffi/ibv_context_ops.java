package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@snippet lang = c:
 * struct ibv_context_ops {
 *     int (*_compat_query_device)(struct ibv_context *context,
 *                     struct ibv_device_attr *device_attr);
 *     int (*_compat_query_port)(struct ibv_context *context,
 *                   uint8_t port_num,
 *                   struct _compat_ibv_port_attr *port_attr);
 *     void *(*_compat_alloc_pd)(void);
 *     void *(*_compat_dealloc_pd)(void);
 *     void *(*_compat_reg_mr)(void);
 *     void *(*_compat_rereg_mr)(void);
 *     void *(*_compat_dereg_mr)(void);
 *     struct ibv_mw *        (*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
 *     int            (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw,
 *                        struct ibv_mw_bind *mw_bind);
 *     int            (*dealloc_mw)(struct ibv_mw *mw);
 *     void *(*_compat_create_cq)(void);
 *     int            (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
 *     int            (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
 *     void *(*_compat_cq_event)(void);
 *     void *(*_compat_resize_cq)(void);
 *     void *(*_compat_destroy_cq)(void);
 *     void *(*_compat_create_srq)(void);
 *     void *(*_compat_modify_srq)(void);
 *     void *(*_compat_query_srq)(void);
 *     void *(*_compat_destroy_srq)(void);
 *     int            (*post_srq_recv)(struct ibv_srq *srq,
 *                          struct ibv_recv_wr *recv_wr,
 *                          struct ibv_recv_wr **bad_recv_wr);
 *     void *(*_compat_create_qp)(void);
 *     void *(*_compat_query_qp)(void);
 *     void *(*_compat_modify_qp)(void);
 *     void *(*_compat_destroy_qp)(void);
 *     int            (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
 *                          struct ibv_send_wr **bad_wr);
 *     int            (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
 *                          struct ibv_recv_wr **bad_wr);
 *     void *(*_compat_create_ah)(void);
 *     void *(*_compat_destroy_ah)(void);
 *     void *(*_compat_attach_mcast)(void);
 *     void *(*_compat_detach_mcast)(void);
 *     void *(*_compat_async_event)(void);
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_context_ops {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("_compat_query_device"),
            ADDRESS.withName("_compat_query_port"),
            ADDRESS.withName("_compat_alloc_pd"),
            ADDRESS.withName("_compat_dealloc_pd"),
            ADDRESS.withName("_compat_reg_mr"),
            ADDRESS.withName("_compat_rereg_mr"),
            ADDRESS.withName("_compat_dereg_mr"),
            ADDRESS.withName("alloc_mw"),
            ADDRESS.withName("bind_mw"),
            ADDRESS.withName("dealloc_mw"),
            ADDRESS.withName("_compat_create_cq"),
            ADDRESS.withName("poll_cq"),
            ADDRESS.withName("req_notify_cq"),
            ADDRESS.withName("_compat_cq_event"),
            ADDRESS.withName("_compat_resize_cq"),
            ADDRESS.withName("_compat_destroy_cq"),
            ADDRESS.withName("_compat_create_srq"),
            ADDRESS.withName("_compat_modify_srq"),
            ADDRESS.withName("_compat_query_srq"),
            ADDRESS.withName("_compat_destroy_srq"),
            ADDRESS.withName("post_srq_recv"),
            ADDRESS.withName("_compat_create_qp"),
            ADDRESS.withName("_compat_query_qp"),
            ADDRESS.withName("_compat_modify_qp"),
            ADDRESS.withName("_compat_destroy_qp"),
            ADDRESS.withName("post_send"),
            ADDRESS.withName("post_recv"),
            ADDRESS.withName("_compat_create_ah"),
            ADDRESS.withName("_compat_destroy_ah"),
            ADDRESS.withName("_compat_attach_mcast"),
            ADDRESS.withName("_compat_detach_mcast"),
            ADDRESS.withName("_compat_async_event")
    ).withName("ibv_context_ops");

    private ibv_context_ops() {
    }

    /** {@return the layout of {@code struct ibv_context_ops}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_context_ops)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code _compat_query_device}. */
    public static final long _compat_query_device$OFFSET = 0;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_query_device} */
    public static MemorySegment _compat_query_device(MemorySegment s) {
        return s.get(ADDRESS, _compat_query_device$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_query_device} */
    public static void _compat_query_device(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_query_device$OFFSET, v);
    }

    /** Offset of {@code _compat_query_port}. */
    public static final long _compat_query_port$OFFSET = 8;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_query_port} */
    public static MemorySegment _compat_query_port(MemorySegment s) {
        return s.get(ADDRESS, _compat_query_port$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_query_port} */
    public static void _compat_query_port(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_query_port$OFFSET, v);
    }

    /** Offset of {@code _compat_alloc_pd}. */
    public static final long _compat_alloc_pd$OFFSET = 16;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_alloc_pd} */
    public static MemorySegment _compat_alloc_pd(MemorySegment s) {
        return s.get(ADDRESS, _compat_alloc_pd$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_alloc_pd} */
    public static void _compat_alloc_pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_alloc_pd$OFFSET, v);
    }

    /** Offset of {@code _compat_dealloc_pd}. */
    public static final long _compat_dealloc_pd$OFFSET = 24;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_dealloc_pd} */
    public static MemorySegment _compat_dealloc_pd(MemorySegment s) {
        return s.get(ADDRESS, _compat_dealloc_pd$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_dealloc_pd} */
    public static void _compat_dealloc_pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_dealloc_pd$OFFSET, v);
    }

    /** Offset of {@code _compat_reg_mr}. */
    public static final long _compat_reg_mr$OFFSET = 32;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_reg_mr} */
    public static MemorySegment _compat_reg_mr(MemorySegment s) {
        return s.get(ADDRESS, _compat_reg_mr$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_reg_mr} */
    public static void _compat_reg_mr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_reg_mr$OFFSET, v);
    }

    /** Offset of {@code _compat_rereg_mr}. */
    public static final long _compat_rereg_mr$OFFSET = 40;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_rereg_mr} */
    public static MemorySegment _compat_rereg_mr(MemorySegment s) {
        return s.get(ADDRESS, _compat_rereg_mr$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_rereg_mr} */
    public static void _compat_rereg_mr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_rereg_mr$OFFSET, v);
    }

    /** Offset of {@code _compat_dereg_mr}. */
    public static final long _compat_dereg_mr$OFFSET = 48;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_dereg_mr} */
    public static MemorySegment _compat_dereg_mr(MemorySegment s) {
        return s.get(ADDRESS, _compat_dereg_mr$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_dereg_mr} */
    public static void _compat_dereg_mr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_dereg_mr$OFFSET, v);
    }

    /** Offset of {@code alloc_mw}. */
    public static final long alloc_mw$OFFSET = 56;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->alloc_mw} */
    public static MemorySegment alloc_mw(MemorySegment s) {
        return s.get(ADDRESS, alloc_mw$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->alloc_mw} */
    public static void alloc_mw(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, alloc_mw$OFFSET, v);
    }

    /** Offset of {@code bind_mw}. */
    public static final long bind_mw$OFFSET = 64;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->bind_mw} */
    public static MemorySegment bind_mw(MemorySegment s) {
        return s.get(ADDRESS, bind_mw$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->bind_mw} */
    public static void bind_mw(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, bind_mw$OFFSET, v);
    }

    /** Offset of {@code dealloc_mw}. */
    public static final long dealloc_mw$OFFSET = 72;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->dealloc_mw} */
    public static MemorySegment dealloc_mw(MemorySegment s) {
        return s.get(ADDRESS, dealloc_mw$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->dealloc_mw} */
    public static void dealloc_mw(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, dealloc_mw$OFFSET, v);
    }

    /** Offset of {@code _compat_create_cq}. */
    public static final long _compat_create_cq$OFFSET = 80;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_create_cq} */
    public static MemorySegment _compat_create_cq(MemorySegment s) {
        return s.get(ADDRESS, _compat_create_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_create_cq} */
    public static void _compat_create_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_create_cq$OFFSET, v);
    }

    /** Offset of {@code poll_cq}. */
    public static final long poll_cq$OFFSET = 88;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->poll_cq} */
    public static MemorySegment poll_cq(MemorySegment s) {
        return s.get(ADDRESS, poll_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->poll_cq} */
    public static void poll_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, poll_cq$OFFSET, v);
    }

    /** Offset of {@code req_notify_cq}. */
    public static final long req_notify_cq$OFFSET = 96;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->req_notify_cq} */
    public static MemorySegment req_notify_cq(MemorySegment s) {
        return s.get(ADDRESS, req_notify_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->req_notify_cq} */
    public static void req_notify_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, req_notify_cq$OFFSET, v);
    }

    /** Offset of {@code _compat_cq_event}. */
    public static final long _compat_cq_event$OFFSET = 104;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_cq_event} */
    public static MemorySegment _compat_cq_event(MemorySegment s) {
        return s.get(ADDRESS, _compat_cq_event$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_cq_event} */
    public static void _compat_cq_event(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_cq_event$OFFSET, v);
    }

    /** Offset of {@code _compat_resize_cq}. */
    public static final long _compat_resize_cq$OFFSET = 112;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_resize_cq} */
    public static MemorySegment _compat_resize_cq(MemorySegment s) {
        return s.get(ADDRESS, _compat_resize_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_resize_cq} */
    public static void _compat_resize_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_resize_cq$OFFSET, v);
    }

    /** Offset of {@code _compat_destroy_cq}. */
    public static final long _compat_destroy_cq$OFFSET = 120;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_destroy_cq} */
    public static MemorySegment _compat_destroy_cq(MemorySegment s) {
        return s.get(ADDRESS, _compat_destroy_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_destroy_cq} */
    public static void _compat_destroy_cq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_destroy_cq$OFFSET, v);
    }

    /** Offset of {@code _compat_create_srq}. */
    public static final long _compat_create_srq$OFFSET = 128;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_create_srq} */
    public static MemorySegment _compat_create_srq(MemorySegment s) {
        return s.get(ADDRESS, _compat_create_srq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_create_srq} */
    public static void _compat_create_srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_create_srq$OFFSET, v);
    }

    /** Offset of {@code _compat_modify_srq}. */
    public static final long _compat_modify_srq$OFFSET = 136;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_modify_srq} */
    public static MemorySegment _compat_modify_srq(MemorySegment s) {
        return s.get(ADDRESS, _compat_modify_srq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_modify_srq} */
    public static void _compat_modify_srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_modify_srq$OFFSET, v);
    }

    /** Offset of {@code _compat_query_srq}. */
    public static final long _compat_query_srq$OFFSET = 144;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_query_srq} */
    public static MemorySegment _compat_query_srq(MemorySegment s) {
        return s.get(ADDRESS, _compat_query_srq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_query_srq} */
    public static void _compat_query_srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_query_srq$OFFSET, v);
    }

    /** Offset of {@code _compat_destroy_srq}. */
    public static final long _compat_destroy_srq$OFFSET = 152;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_destroy_srq} */
    public static MemorySegment _compat_destroy_srq(MemorySegment s) {
        return s.get(ADDRESS, _compat_destroy_srq$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_destroy_srq} */
    public static void _compat_destroy_srq(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_destroy_srq$OFFSET, v);
    }

    /** Offset of {@code post_srq_recv}. */
    public static final long post_srq_recv$OFFSET = 160;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->post_srq_recv} */
    public static MemorySegment post_srq_recv(MemorySegment s) {
        return s.get(ADDRESS, post_srq_recv$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->post_srq_recv} */
    public static void post_srq_recv(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, post_srq_recv$OFFSET, v);
    }

    /** Offset of {@code _compat_create_qp}. */
    public static final long _compat_create_qp$OFFSET = 168;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_create_qp} */
    public static MemorySegment _compat_create_qp(MemorySegment s) {
        return s.get(ADDRESS, _compat_create_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_create_qp} */
    public static void _compat_create_qp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_create_qp$OFFSET, v);
    }

    /** Offset of {@code _compat_query_qp}. */
    public static final long _compat_query_qp$OFFSET = 176;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_query_qp} */
    public static MemorySegment _compat_query_qp(MemorySegment s) {
        return s.get(ADDRESS, _compat_query_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_query_qp} */
    public static void _compat_query_qp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_query_qp$OFFSET, v);
    }

    /** Offset of {@code _compat_modify_qp}. */
    public static final long _compat_modify_qp$OFFSET = 184;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_modify_qp} */
    public static MemorySegment _compat_modify_qp(MemorySegment s) {
        return s.get(ADDRESS, _compat_modify_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_modify_qp} */
    public static void _compat_modify_qp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_modify_qp$OFFSET, v);
    }

    /** Offset of {@code _compat_destroy_qp}. */
    public static final long _compat_destroy_qp$OFFSET = 192;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_destroy_qp} */
    public static MemorySegment _compat_destroy_qp(MemorySegment s) {
        return s.get(ADDRESS, _compat_destroy_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_destroy_qp} */
    public static void _compat_destroy_qp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_destroy_qp$OFFSET, v);
    }

    /** Offset of {@code post_send}. */
    public static final long post_send$OFFSET = 200;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->post_send} */
    public static MemorySegment post_send(MemorySegment s) {
        return s.get(ADDRESS, post_send$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->post_send} */
    public static void post_send(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, post_send$OFFSET, v);
    }

    /** Offset of {@code post_recv}. */
    public static final long post_recv$OFFSET = 208;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->post_recv} */
    public static MemorySegment post_recv(MemorySegment s) {
        return s.get(ADDRESS, post_recv$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->post_recv} */
    public static void post_recv(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, post_recv$OFFSET, v);
    }

    /** Offset of {@code _compat_create_ah}. */
    public static final long _compat_create_ah$OFFSET = 216;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_create_ah} */
    public static MemorySegment _compat_create_ah(MemorySegment s) {
        return s.get(ADDRESS, _compat_create_ah$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_create_ah} */
    public static void _compat_create_ah(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_create_ah$OFFSET, v);
    }

    /** Offset of {@code _compat_destroy_ah}. */
    public static final long _compat_destroy_ah$OFFSET = 224;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_destroy_ah} */
    public static MemorySegment _compat_destroy_ah(MemorySegment s) {
        return s.get(ADDRESS, _compat_destroy_ah$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_destroy_ah} */
    public static void _compat_destroy_ah(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_destroy_ah$OFFSET, v);
    }

    /** Offset of {@code _compat_attach_mcast}. */
    public static final long _compat_attach_mcast$OFFSET = 232;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_attach_mcast} */
    public static MemorySegment _compat_attach_mcast(MemorySegment s) {
        return s.get(ADDRESS, _compat_attach_mcast$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_attach_mcast} */
    public static void _compat_attach_mcast(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_attach_mcast$OFFSET, v);
    }

    /** Offset of {@code _compat_detach_mcast}. */
    public static final long _compat_detach_mcast$OFFSET = 240;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_detach_mcast} */
    public static MemorySegment _compat_detach_mcast(MemorySegment s) {
        return s.get(ADDRESS, _compat_detach_mcast$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_detach_mcast} */
    public static void _compat_detach_mcast(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_detach_mcast$OFFSET, v);
    }

    /** Offset of {@code _compat_async_event}. */
    public static final long _compat_async_event$OFFSET = 248;

    /** @param s a {@code struct ibv_context_ops} @return {@code s->_compat_async_event} */
    public static MemorySegment _compat_async_event(MemorySegment s) {
        return s.get(ADDRESS, _compat_async_event$OFFSET);
    }

    /** @param s a {@code struct ibv_context_ops} @param v the value for {@code s->_compat_async_event} */
    public static void _compat_async_event(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, _compat_async_event$OFFSET, v);
    }
}
