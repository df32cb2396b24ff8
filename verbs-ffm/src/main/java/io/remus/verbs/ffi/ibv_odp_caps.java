package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_odp_caps {
 *     uint64_t general_caps;
 *     struct {
 *         uint32_t rc_odp_caps;
 *         uint32_t uc_odp_caps;
 *         uint32_t ud_odp_caps;
 *     } per_transport_caps;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_odp_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("general_caps"),
            per_transport_caps.layout().withName("per_transport_caps"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_odp_caps");

    private ibv_odp_caps() {
    }

    /** {@return the layout of {@code struct ibv_odp_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_odp_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code general_caps}. */
    public static final long general_caps$OFFSET = 0;

    /** @param s a {@code struct ibv_odp_caps} @return {@code s->general_caps} */
    public static long general_caps(MemorySegment s) {
        return s.get(JAVA_LONG, general_caps$OFFSET);
    }

    /** @param s a {@code struct ibv_odp_caps} @param v the value for {@code s->general_caps} */
    public static void general_caps(MemorySegment s, long v) {
        s.set(JAVA_LONG, general_caps$OFFSET, v);
    }

    /** Offset of {@code per_transport_caps}. */
    public static final long per_transport_caps$OFFSET = 8;

    /** @param s a {@code struct ibv_odp_caps} @return the nested member {@code s->per_transport_caps}, as a slice of {@code s} */
    public static MemorySegment per_transport_caps(MemorySegment s) {
        return s.asSlice(per_transport_caps$OFFSET, 12);
    }

    /** The {@code struct} member {@code per_transport_caps} of {@code struct ibv_odp_caps}; its offsets are relative to that member. */
    public static final class per_transport_caps {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                JAVA_INT.withName("rc_odp_caps"),
                JAVA_INT.withName("uc_odp_caps"),
                JAVA_INT.withName("ud_odp_caps")
        ).withName("per_transport_caps");

        private per_transport_caps() {
        }

        /** {@return the layout of {@code ibv_odp_caps.per_transport_caps}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_odp_caps.per_transport_caps)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code rc_odp_caps}. */
        public static final long rc_odp_caps$OFFSET = 0;

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @return {@code s->rc_odp_caps} */
        public static int rc_odp_caps(MemorySegment s) {
            return s.get(JAVA_INT, rc_odp_caps$OFFSET);
        }

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @param v the value for {@code s->rc_odp_caps} */
        public static void rc_odp_caps(MemorySegment s, int v) {
            s.set(JAVA_INT, rc_odp_caps$OFFSET, v);
        }

        /** Offset of {@code uc_odp_caps}. */
        public static final long uc_odp_caps$OFFSET = 4;

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @return {@code s->uc_odp_caps} */
        public static int uc_odp_caps(MemorySegment s) {
            return s.get(JAVA_INT, uc_odp_caps$OFFSET);
        }

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @param v the value for {@code s->uc_odp_caps} */
        public static void uc_odp_caps(MemorySegment s, int v) {
            s.set(JAVA_INT, uc_odp_caps$OFFSET, v);
        }

        /** Offset of {@code ud_odp_caps}. */
        public static final long ud_odp_caps$OFFSET = 8;

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @return {@code s->ud_odp_caps} */
        public static int ud_odp_caps(MemorySegment s) {
            return s.get(JAVA_INT, ud_odp_caps$OFFSET);
        }

        /** @param s a {@code ibv_odp_caps.per_transport_caps} @param v the value for {@code s->ud_odp_caps} */
        public static void ud_odp_caps(MemorySegment s, int v) {
            s.set(JAVA_INT, ud_odp_caps$OFFSET, v);
        }
    }
}
