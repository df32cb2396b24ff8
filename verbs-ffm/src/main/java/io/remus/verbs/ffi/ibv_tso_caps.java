package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_tso_caps {
 *     uint32_t max_tso;
 *     uint32_t supported_qpts;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_tso_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("max_tso"),
            JAVA_INT.withName("supported_qpts")
    ).withName("ibv_tso_caps");

    private ibv_tso_caps() {
    }

    /** {@return the layout of {@code struct ibv_tso_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_tso_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code max_tso}. */
    public static final long max_tso$OFFSET = 0;

    /** @param s a {@code struct ibv_tso_caps} @return {@code s->max_tso} */
    public static int max_tso(MemorySegment s) {
        return s.get(JAVA_INT, max_tso$OFFSET);
    }

    /** @param s a {@code struct ibv_tso_caps} @param v the value for {@code s->max_tso} */
    public static void max_tso(MemorySegment s, int v) {
        s.set(JAVA_INT, max_tso$OFFSET, v);
    }

    /** Offset of {@code supported_qpts}. */
    public static final long supported_qpts$OFFSET = 4;

    /** @param s a {@code struct ibv_tso_caps} @return {@code s->supported_qpts} */
    public static int supported_qpts(MemorySegment s) {
        return s.get(JAVA_INT, supported_qpts$OFFSET);
    }

    /** @param s a {@code struct ibv_tso_caps} @param v the value for {@code s->supported_qpts} */
    public static void supported_qpts(MemorySegment s, int v) {
        s.set(JAVA_INT, supported_qpts$OFFSET, v);
    }
}
