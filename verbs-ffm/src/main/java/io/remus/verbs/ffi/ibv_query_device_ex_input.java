package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_query_device_ex_input {
 *     uint32_t        comp_mask;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_query_device_ex_input {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("comp_mask")
    ).withName("ibv_query_device_ex_input");

    private ibv_query_device_ex_input() {
    }

    /** {@return the layout of {@code struct ibv_query_device_ex_input}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_query_device_ex_input)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code comp_mask}. */
    public static final long comp_mask$OFFSET = 0;

    /** @param s a {@code struct ibv_query_device_ex_input} @return {@code s->comp_mask} */
    public static int comp_mask(MemorySegment s) {
        return s.get(JAVA_INT, comp_mask$OFFSET);
    }

    /** @param s a {@code struct ibv_query_device_ex_input} @param v the value for {@code s->comp_mask} */
    public static void comp_mask(MemorySegment s, int v) {
        s.set(JAVA_INT, comp_mask$OFFSET, v);
    }
}
