package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_comp_channel {
 *     struct ibv_context     *context;
 *     int            fd;
 *     int            refcnt;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_comp_channel {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            JAVA_INT.withName("fd"),
            JAVA_INT.withName("refcnt")
    ).withName("ibv_comp_channel");

    private ibv_comp_channel() {
    }

    /** {@return the layout of {@code struct ibv_comp_channel}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_comp_channel)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_comp_channel} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_comp_channel} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code fd}. */
    public static final long fd$OFFSET = 8;

    /** @param s a {@code struct ibv_comp_channel} @return {@code s->fd} */
    public static int fd(MemorySegment s) {
        return s.get(JAVA_INT, fd$OFFSET);
    }

    /** @param s a {@code struct ibv_comp_channel} @param v the value for {@code s->fd} */
    public static void fd(MemorySegment s, int v) {
        s.set(JAVA_INT, fd$OFFSET, v);
    }

    /** Offset of {@code refcnt}. */
    public static final long refcnt$OFFSET = 12;

    /** @param s a {@code struct ibv_comp_channel} @return {@code s->refcnt} */
    public static int refcnt(MemorySegment s) {
        return s.get(JAVA_INT, refcnt$OFFSET);
    }

    /** @param s a {@code struct ibv_comp_channel} @param v the value for {@code s->refcnt} */
    public static void refcnt(MemorySegment s, int v) {
        s.set(JAVA_INT, refcnt$OFFSET, v);
    }
}
