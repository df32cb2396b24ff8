package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_pd {
 *     struct ibv_context     *context;
 *     uint32_t        handle;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_pd {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            JAVA_INT.withName("handle"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_pd");

    private ibv_pd() {
    }

    /** {@return the layout of {@code struct ibv_pd}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_pd)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_pd} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_pd} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code handle}. */
    public static final long handle$OFFSET = 8;

    /** @param s a {@code struct ibv_pd} @return {@code s->handle} */
    public static int handle(MemorySegment s) {
        return s.get(JAVA_INT, handle$OFFSET);
    }

    /** @param s a {@code struct ibv_pd} @param v the value for {@code s->handle} */
    public static void handle(MemorySegment s, int v) {
        s.set(JAVA_INT, handle$OFFSET, v);
    }
}
