package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_mw_bind_info {
 *     struct ibv_mr    *mr;
 *     uint64_t     addr;
 *     uint64_t     length;
 *     unsigned int     mw_access_flags;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_mw_bind_info {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("mr"),
            JAVA_LONG.withName("addr"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("mw_access_flags"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_mw_bind_info");

    private ibv_mw_bind_info() {
    }

    /** {@return the layout of {@code struct ibv_mw_bind_info}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_mw_bind_info)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code mr}. */
    public static final long mr$OFFSET = 0;

    /** @param s a {@code struct ibv_mw_bind_info} @return {@code s->mr} */
    public static MemorySegment mr(MemorySegment s) {
        return s.get(ADDRESS, mr$OFFSET);
    }

    /** @param s a {@code struct ibv_mw_bind_info} @param v the value for {@code s->mr} */
    public static void mr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, mr$OFFSET, v);
    }

    /** Offset of {@code addr}. */
    public static final long addr$OFFSET = 8;

    /** @param s a {@code struct ibv_mw_bind_info} @return {@code s->addr} */
    public static long addr(MemorySegment s) {
        return s.get(JAVA_LONG, addr$OFFSET);
    }

    /** @param s a {@code struct ibv_mw_bind_info} @param v the value for {@code s->addr} */
    public static void addr(MemorySegment s, long v) {
        s.set(JAVA_LONG, addr$OFFSET, v);
    }

    /** Offset of {@code length}. */
    public static final long length$OFFSET = 16;

    /** @param s a {@code struct ibv_mw_bind_info} @return {@code s->length} */
    public static long length(MemorySegment s) {
        return s.get(JAVA_LONG, length$OFFSET);
    }

    /** @param s a {@code struct ibv_mw_bind_info} @param v the value for {@code s->length} */
    public static void length(MemorySegment s, long v) {
        s.set(JAVA_LONG, length$OFFSET, v);
    }

    /** Offset of {@code mw_access_flags}. */
    public static final long mw_access_flags$OFFSET = 24;

    /** @param s a {@code struct ibv_mw_bind_info} @return {@code s->mw_access_flags} */
    public static int mw_access_flags(MemorySegment s) {
        return s.get(JAVA_INT, mw_access_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_mw_bind_info} @param v the value for {@code s->mw_access_flags} */
    public static void mw_access_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, mw_access_flags$OFFSET, v);
    }
}
