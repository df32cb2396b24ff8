package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_async_event {
 *     union {
 *         struct ibv_cq  *cq;
 *         struct ibv_qp  *qp;
 *         struct ibv_srq *srq;
 *         struct ibv_wq  *wq;
 *         int             port_num;
 *     } element;
 *     enum ibv_event_type event_type;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_async_event {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.unionLayout(
                    ADDRESS.withName("cq"),
                    ADDRESS.withName("qp"),
                    ADDRESS.withName("srq"),
                    ADDRESS.withName("wq"),
                    JAVA_INT.withName("port_num")
            ).withName("element"),
            JAVA_INT.withName("event_type"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_async_event");

    private ibv_async_event() {
    }

    /** {@return the layout of {@code struct ibv_async_event}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_async_event)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code element}. */
    public static final long element$OFFSET = 0;
    /** Offset of {@code event_type}. */
    public static final long event_type$OFFSET = 8;

    /** @param s a {@code struct ibv_async_event} @return {@code s->element.cq}, {@code qp}, {@code srq} or {@code wq}: which one, {@code event_type} says */
    public static MemorySegment element(MemorySegment s) {
        return s.get(ADDRESS, element$OFFSET);
    }

    /** @param s a {@code struct ibv_async_event} @return {@code s->element.port_num} (port events) */
    public static int element_port_num(MemorySegment s) {
        return s.get(JAVA_INT, element$OFFSET);
    }

    /** @param s a {@code struct ibv_async_event} @return {@code s->event_type} ({@code enum ibv_event_type}) */
    public static int event_type(MemorySegment s) {
        return s.get(JAVA_INT, event_type$OFFSET);
    }
}
