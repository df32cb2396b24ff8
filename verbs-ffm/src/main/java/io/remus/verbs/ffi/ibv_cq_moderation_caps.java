package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_cq_moderation_caps {
 *     uint16_t max_cq_count;
 *     uint16_t max_cq_period;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_cq_moderation_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("max_cq_count"),
            JAVA_SHORT.withName("max_cq_period")
    ).withName("ibv_cq_moderation_caps");

    private ibv_cq_moderation_caps() {
    }

    /** {@return the layout of {@code struct ibv_cq_moderation_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_cq_moderation_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code max_cq_count}. */
    public static final long max_cq_count$OFFSET = 0;

    /** @param s a {@code struct ibv_cq_moderation_caps} @return {@code s->max_cq_count} */
    public static short max_cq_count(MemorySegment s) {
        return s.get(JAVA_SHORT, max_cq_count$OFFSET);
    }

    /** @param s a {@code struct ibv_cq_moderation_caps} @param v the value for {@code s->max_cq_count} */
    public static void max_cq_count(MemorySegment s, short v) {
        s.set(JAVA_SHORT, max_cq_count$OFFSET, v);
    }

    /** Offset of {@code max_cq_period}. */
    public static final long max_cq_period$OFFSET = 2;

    /** @param s a {@code struct ibv_cq_moderation_caps} @return {@code s->max_cq_period} */
    public static short max_cq_period(MemorySegment s) {
        return s.get(JAVA_SHORT, max_cq_period$OFFSET);
    }

    /** @param s a {@code struct ibv_cq_moderation_caps} @param v the value for {@code s->max_cq_period} */
    public static void max_cq_period(MemorySegment s, short v) {
        s.set(JAVA_SHORT, max_cq_period$OFFSET, v);
    }
}
