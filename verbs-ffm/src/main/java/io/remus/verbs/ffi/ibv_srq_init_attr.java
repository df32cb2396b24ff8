package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@snippet lang = c:
 * struct ibv_srq_init_attr {
 *     void               *srq_context;
 *     struct ibv_srq_attr    attr;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_srq_init_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("srq_context"),
            ibv_srq_attr.layout().withName("attr"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_srq_init_attr");

    private ibv_srq_init_attr() {
    }

    /** {@return the layout of {@code struct ibv_srq_init_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_srq_init_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code srq_context}. */
    public static final long srq_context$OFFSET = 0;

    /** @param s a {@code struct ibv_srq_init_attr} @return {@code s->srq_context} */
    public static MemorySegment srq_context(MemorySegment s) {
        return s.get(ADDRESS, srq_context$OFFSET);
    }

    /** @param s a {@code struct ibv_srq_init_attr} @param v the value for {@code s->srq_context} */
    public static void srq_context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, srq_context$OFFSET, v);
    }

    /** Offset of {@code attr}. */
    public static final long attr$OFFSET = 8;

    /** @param s a {@code struct ibv_srq_init_attr} @return the nested struct {@code s->attr}, as a slice of {@code s} */
    public static MemorySegment attr(MemorySegment s) {
        return s.asSlice(attr$OFFSET, 12);
    }
}
