package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_cq {
 *     struct ibv_context     *context;
 *     struct ibv_comp_channel *channel;
 *     void               *cq_context;
 *     uint32_t        handle;
 *     int            cqe;
 *     pthread_mutex_t        mutex;
 *     pthread_cond_t        cond;
 *     uint32_t        comp_events_completed;
 *     uint32_t        async_events_completed;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_cq {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("channel"),
            ADDRESS.withName("cq_context"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("cqe"),
            MemoryLayout.sequenceLayout(40, JAVA_BYTE).withByteAlignment(8).withName("mutex"),
            MemoryLayout.sequenceLayout(48, JAVA_BYTE).withByteAlignment(8).withName("cond"),
            JAVA_INT.withName("comp_events_completed"),
            JAVA_INT.withName("async_events_completed")
    ).withName("ibv_cq");

    private ibv_cq() {
    }

    /** {@return the layout of {@code struct ibv_cq}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_cq)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_cq} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code channel}. */
    public static final long channel$OFFSET = 8;

    /** @param s a {@code struct ibv_cq} @return {@code s->channel} */
    public static MemorySegment channel(MemorySegment s) {
        return s.get(ADDRESS, channel$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->channel} */
    public static void channel(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, channel$OFFSET, v);
    }

    /** Offset of {@code cq_context}. */
    public static final long cq_context$OFFSET = 16;

    /** @param s a {@code struct ibv_cq} @return {@code s->cq_context} */
    public static MemorySegment cq_context(MemorySegment s) {
        return s.get(ADDRESS, cq_context$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->cq_context} */
    public static void cq_context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, cq_context$OFFSET, v);
    }

    /** Offset of {@code handle}. */
    public static final long handle$OFFSET = 24;

    /** @param s a {@code struct ibv_cq} @return {@code s->handle} */
    public static int handle(MemorySegment s) {
        return s.get(JAVA_INT, handle$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->handle} */
    public static void handle(MemorySegment s, int v) {
        s.set(JAVA_INT, handle$OFFSET, v);
    }

    /** Offset of {@code cqe}. */
    public static final long cqe$OFFSET = 28;

    /** @param s a {@code struct ibv_cq} @return {@code s->cqe} */
    public static int cqe(MemorySegment s) {
        return s.get(JAVA_INT, cqe$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->cqe} */
    public static void cqe(MemorySegment s, int v) {
        s.set(JAVA_INT, cqe$OFFSET, v);
    }

    /** Offset of {@code mutex}. */
    public static final long mutex$OFFSET = 32;

    /** @param s a {@code struct ibv_cq} @return the opaque bytes of {@code s->mutex}, as a slice of {@code s} */
    public static MemorySegment mutex(MemorySegment s) {
        return s.asSlice(mutex$OFFSET, 40);
    }

    /** Offset of {@code cond}. */
    public static final long cond$OFFSET = 72;

    /** @param s a {@code struct ibv_cq} @return the opaque bytes of {@code s->cond}, as a slice of {@code s} */
    public static MemorySegment cond(MemorySegment s) {
        return s.asSlice(cond$OFFSET, 48);
    }

    /** Offset of {@code comp_events_completed}. */
    public static final long comp_events_completed$OFFSET = 120;

    /** @param s a {@code struct ibv_cq} @return {@code s->comp_events_completed} */
    public static int comp_events_completed(MemorySegment s) {
        return s.get(JAVA_INT, comp_events_completed$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->comp_events_completed} */
    public static void comp_events_completed(MemorySegment s, int v) {
        s.set(JAVA_INT, comp_events_completed$OFFSET, v);
    }

    /** Offset of {@code async_events_completed}. */
    public static final long async_events_completed$OFFSET = 124;

    /** @param s a {@code struct ibv_cq} @return {@code s->async_events_completed} */
    public static int async_events_completed(MemorySegment s) {
        return s.get(JAVA_INT, async_events_completed$OFFSET);
    }

    /** @param s a {@code struct ibv_cq} @param v the value for {@code s->async_events_completed} */
    public static void async_events_completed(MemorySegment s, int v) {
        s.set(JAVA_INT, async_events_completed$OFFSET, v);
    }
}
