package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * union ibv_gid {
 *     uint8_t            raw[16];
 *     struct {
 *         __be64    subnet_prefix;
 *         __be64    interface_id;
 *     } global;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_gid {
    private static final GroupLayout $LAYOUT = MemoryLayout.unionLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("raw"),
            global.layout().withName("global")
    ).withName("ibv_gid");

    private ibv_gid() {
    }

    /** {@return the layout of {@code union ibv_gid}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(union ibv_gid)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code raw}. */
    public static final long raw$OFFSET = 0;

    /** @param s a {@code union ibv_gid} @return the array {@code s->raw}, as a slice of {@code s} */
    public static MemorySegment raw(MemorySegment s) {
        return s.asSlice(raw$OFFSET, 16);
    }

    /** Offset of {@code global}. */
    public static final long global$OFFSET = 0;

    /** @param s a {@code union ibv_gid} @return the nested member {@code s->global}, as a slice of {@code s} */
    public static MemorySegment global(MemorySegment s) {
        return s.asSlice(global$OFFSET, 16);
    }

    /** The {@code struct} member {@code global} of {@code union ibv_gid}; its offsets are relative to that member. */
    public static final class global {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                JAVA_LONG.withName("subnet_prefix"),
                JAVA_LONG.withName("interface_id")
        ).withName("global");

        private global() {
        }

        /** {@return the layout of {@code ibv_gid.global}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_gid.global)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code subnet_prefix}. */
        public static final long subnet_prefix$OFFSET = 0;

        /** @param s a {@code ibv_gid.global} @return {@code s->subnet_prefix} */
        public static long subnet_prefix(MemorySegment s) {
            return s.get(JAVA_LONG, subnet_prefix$OFFSET);
        }

        /** @param s a {@code ibv_gid.global} @param v the value for {@code s->subnet_prefix} */
        public static void subnet_prefix(MemorySegment s, long v) {
            s.set(JAVA_LONG, subnet_prefix$OFFSET, v);
        }

        /** Offset of {@code interface_id}. */
        public static final long interface_id$OFFSET = 8;

        /** @param s a {@code ibv_gid.global} @return {@code s->interface_id} */
        public static long interface_id(MemorySegment s) {
            return s.get(JAVA_LONG, interface_id$OFFSET);
        }

        /** @param s a {@code ibv_gid.global} @param v the value for {@code s->interface_id} */
        public static void interface_id(MemorySegment s, long v) {
            s.set(JAVA_LONG, interface_id$OFFSET, v);
        }
    }
}
