package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_cm_event {
 *     struct rdma_cm_id      *id;
 *     struct rdma_cm_id      *listen_id;
 *     enum rdma_cm_event_type event;
 *     int                     status;
 *     union {
 *         struct rdma_conn_param conn;
 *         struct rdma_ud_param   ud;
 *     } param;
 * }
 * }
 *
 * <p>Events are owned by librdmacm: read what is needed, then {@link RdmaCm#rdma_ack_cm_event}.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_cm_event {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("id"),
            ADDRESS.withName("listen_id"),
            JAVA_INT.withName("event"),
            JAVA_INT.withName("status"),
            MemoryLayout.unionLayout(
                    rdma_conn_param.layout().withName("conn"),
                    rdma_ud_param.layout().withName("ud")
            ).withName("param")
    ).withName("rdma_cm_event");

    private rdma_cm_event() {
    }

    /** {@return the layout of {@code struct rdma_cm_event}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_cm_event)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code id}. */
    public static final long id$OFFSET = 0;
    /** Offset of {@code listen_id}. */
    public static final long listen_id$OFFSET = 8;
    /** Offset of {@code event}. */
    public static final long event$OFFSET = 16;
    /** Offset of {@code status}. */
    public static final long status$OFFSET = 20;
    /** Offset of {@code param}. */
    public static final long param$OFFSET = 24;

    /** @param s a {@code struct rdma_cm_event} @return {@code s->id} */
    public static MemorySegment id(MemorySegment s) {
        return s.get(ADDRESS, id$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_event} @param v the value for {@code s->id} */
    public static void id(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, id$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_event} @return {@code s->listen_id} */
    public static MemorySegment listen_id(MemorySegment s) {
        return s.get(ADDRESS, listen_id$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_event} @param v the value for {@code s->listen_id} */
    public static void listen_id(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, listen_id$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_event} @return {@code s->event} */
    public static int event(MemorySegment s) {
        return s.get(JAVA_INT, event$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_event} @param v the value for {@code s->event} */
    public static void event(MemorySegment s, int v) {
        s.set(JAVA_INT, event$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_event} @return {@code s->status} */
    public static int status(MemorySegment s) {
        return s.get(JAVA_INT, status$OFFSET);
    }

    /** @param s a {@code struct rdma_cm_event} @param v the value for {@code s->status} */
    public static void status(MemorySegment s, int v) {
        s.set(JAVA_INT, status$OFFSET, v);
    }

    /** @param s a {@code struct rdma_cm_event} @return a slice over {@code s->param} (56 bytes) */
    public static MemorySegment param(MemorySegment s) {
        return s.asSlice(param$OFFSET, 56);
    }

    /** @param s a {@code struct rdma_cm_event} @param v copied into {@code s->param} (56 bytes) */
    public static void param(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, param$OFFSET, 56);
    }

    /** @param s a {@code struct rdma_cm_event} @return a slice over {@code s->param.conn} */
    public static MemorySegment param_conn(MemorySegment s) {
        return s.asSlice(param$OFFSET, rdma_conn_param.sizeof());
    }

    /** @param s a {@code struct rdma_cm_event} @return a slice over {@code s->param.ud} */
    public static MemorySegment param_ud(MemorySegment s) {
        return s.asSlice(param$OFFSET, rdma_ud_param.sizeof());
    }
}
