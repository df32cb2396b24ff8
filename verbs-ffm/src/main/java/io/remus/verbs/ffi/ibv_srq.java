package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_srq {
 *     struct ibv_context     *context;
 *     void               *srq_context;
 *     struct ibv_pd           *pd;
 *     uint32_t        handle;
 *     pthread_mutex_t        mutex;
 *     pthread_cond_t        cond;
 *     uint32_t        events_completed;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_srq {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("srq_context"),
            ADDRESS.withName("pd"),
            JAVA_INT.withName("handle"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(40, JAVA_BYTE).withByteAlignment(8).withName("mutex"),
            MemoryLayout.sequenceLayout(48, JAVA_BYTE).withByteAlignment(8).withName("cond"),
            JAVA_INT.withName("events_completed"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_srq");

    private ibv_srq() {
    }

    /** {@return the layout of {@code struct ibv_srq}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_srq)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_srq} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_srq} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code srq_context}. */
    public static final long srq_context$OFFSET = 8;

    /** @param s a {@code struct ibv_srq} @return {@code s->srq_context} */
    public static MemorySegment srq_context(MemorySegment s) {
        return s.get(ADDRESS, srq_context$OFFSET);
    }

    /** @param s a {@code struct ibv_srq} @param v the value for {@code s->srq_context} */
    public static void srq_context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, srq_context$OFFSET, v);
    }

    /** Offset of {@code pd}. */
    public static final long pd$OFFSET = 16;

    /** @param s a {@code struct ibv_srq} @return {@code s->pd} */
    public static MemorySegment pd(MemorySegment s) {
        return s.get(ADDRESS, pd$OFFSET);
    }

    /** @param s a {@code struct ibv_srq} @param v the value for {@code s->pd} */
    public static void pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, pd$OFFSET, v);
    }

    /** Offset of {@code handle}. */
    public static final long handle$OFFSET = 24;

    /** @param s a {@code struct ibv_srq} @return {@code s->handle} */
    public static int handle(MemorySegment s) {
        return s.get(JAVA_INT, handle$OFFSET);
    }

    /** @param s a {@code struct ibv_srq} @param v the value for {@code s->handle} */
    public static void handle(MemorySegment s, int v) {
        s.set(JAVA_INT, handle$OFFSET, v);
    }

    /** Offset of {@code mutex}. */
    public static final long mutex$OFFSET = 32;

    /** @param s a {@code struct ibv_srq} @return the opaque bytes of {@code s->mutex}, as a slice of {@code s} */
    public static MemorySegment mutex(MemorySegment s) {
        return s.asSlice(mutex$OFFSET, 40);
    }

    /** Offset of {@code cond}. */
    public static final long cond$OFFSET = 72;

    /** @param s a {@code struct ibv_srq} @return the opaque bytes of {@code s->cond}, as a slice of {@code s} */
    public static MemorySegment cond(MemorySegment s) {
        return s.asSlice(cond$OFFSET, 48);
    }

    /** Offset of {@code events_completed}. */
    public static final long events_completed$OFFSET = 120;

    /** @param s a {@code struct ibv_srq} @return {@code s->events_completed} */
    public static int events_completed(MemorySegment s) {
        return s.get(JAVA_INT, events_completed$OFFSET);
    }

    /** @param s a {@code struct ibv_srq} @param v the value for {@code s->events_completed} */
    public static void events_completed(MemorySegment s, int v) {
        s.set(JAVA_INT, events_completed$OFFSET, v);
    }
}
