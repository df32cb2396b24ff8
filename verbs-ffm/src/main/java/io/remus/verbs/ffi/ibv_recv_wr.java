package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_recv_wr {
 *     uint64_t        wr_id;
 *     struct ibv_recv_wr     *next;
 *     struct ibv_sge           *sg_list;
 *     int            num_sge;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_recv_wr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("wr_id"),
            ADDRESS.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_recv_wr");

    private ibv_recv_wr() {
    }

    /** {@return the layout of {@code struct ibv_recv_wr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_recv_wr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code wr_id}. */
    public static final long wr_id$OFFSET = 0;

    /** @param s a {@code struct ibv_recv_wr} @return {@code s->wr_id} */
    public static long wr_id(MemorySegment s) {
        return s.get(JAVA_LONG, wr_id$OFFSET);
    }

    /** @param s a {@code struct ibv_recv_wr} @param v the value for {@code s->wr_id} */
    public static void wr_id(MemorySegment s, long v) {
        s.set(JAVA_LONG, wr_id$OFFSET, v);
    }

    /** Offset of {@code next}. */
    public static final long next$OFFSET = 8;

    /** @param s a {@code struct ibv_recv_wr} @return {@code s->next} */
    public static MemorySegment next(MemorySegment s) {
        return s.get(ADDRESS, next$OFFSET);
    }

    /** @param s a {@code struct ibv_recv_wr} @param v the value for {@code s->next} */
    public static void next(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, next$OFFSET, v);
    }

    /** Offset of {@code sg_list}. */
    public static final long sg_list$OFFSET = 16;

    /** @param s a {@code struct ibv_recv_wr} @return {@code s->sg_list} */
    public static MemorySegment sg_list(MemorySegment s) {
        return s.get(ADDRESS, sg_list$OFFSET);
    }

    /** @param s a {@code struct ibv_recv_wr} @param v the value for {@code s->sg_list} */
    public static void sg_list(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, sg_list$OFFSET, v);
    }

    /** Offset of {@code num_sge}. */
    public static final long num_sge$OFFSET = 24;

    /** @param s a {@code struct ibv_recv_wr} @return {@code s->num_sge} */
    public static int num_sge(MemorySegment s) {
        return s.get(JAVA_INT, num_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_recv_wr} @param v the value for {@code s->num_sge} */
    public static void num_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, num_sge$OFFSET, v);
    }
}
