package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_mr {
 *     struct ibv_context     *context;
 *     struct ibv_pd           *pd;
 *     void               *addr;
 *     size_t            length;
 *     uint32_t        handle;
 *     uint32_t        lkey;
 *     uint32_t        rkey;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_mr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("context"),
            ADDRESS.withName("pd"),
            ADDRESS.withName("addr"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("handle"),
            JAVA_INT.withName("lkey"),
            JAVA_INT.withName("rkey"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_mr");

    private ibv_mr() {
    }

    /** {@return the layout of {@code struct ibv_mr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_mr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code context}. */
    public static final long context$OFFSET = 0;

    /** @param s a {@code struct ibv_mr} @return {@code s->context} */
    public static MemorySegment context(MemorySegment s) {
        return s.get(ADDRESS, context$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->context} */
    public static void context(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, context$OFFSET, v);
    }

    /** Offset of {@code pd}. */
    public static final long pd$OFFSET = 8;

    /** @param s a {@code struct ibv_mr} @return {@code s->pd} */
    public static MemorySegment pd(MemorySegment s) {
        return s.get(ADDRESS, pd$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->pd} */
    public static void pd(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, pd$OFFSET, v);
    }

    /** Offset of {@code addr}. */
    public static final long addr$OFFSET = 16;

    /** @param s a {@code struct ibv_mr} @return {@code s->addr} */
    public static MemorySegment addr(MemorySegment s) {
        return s.get(ADDRESS, addr$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->addr} */
    public static void addr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, addr$OFFSET, v);
    }

    /** Offset of {@code length}. */
    public static final long length$OFFSET = 24;

    /** @param s a {@code struct ibv_mr} @return {@code s->length} */
    public static long length(MemorySegment s) {
        return s.get(JAVA_LONG, length$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->length} */
    public static void length(MemorySegment s, long v) {
        s.set(JAVA_LONG, length$OFFSET, v);
    }

    /** Offset of {@code handle}. */
    public static final long handle$OFFSET = 32;

    /** @param s a {@code struct ibv_mr} @return {@code s->handle} */
    public static int handle(MemorySegment s) {
        return s.get(JAVA_INT, handle$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->handle} */
    public static void handle(MemorySegment s, int v) {
        s.set(JAVA_INT, handle$OFFSET, v);
    }

    /** Offset of {@code lkey}. */
    public static final long lkey$OFFSET = 36;

    /** @param s a {@code struct ibv_mr} @return {@code s->lkey} */
    public static int lkey(MemorySegment s) {
        return s.get(JAVA_INT, lkey$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->lkey} */
    public static void lkey(MemorySegment s, int v) {
        s.set(JAVA_INT, lkey$OFFSET, v);
    }

    /** Offset of {@code rkey}. */
    public static final long rkey$OFFSET = 40;

    /** @param s a {@code struct ibv_mr} @return {@code s->rkey} */
    public static int rkey(MemorySegment s) {
        return s.get(JAVA_INT, rkey$OFFSET);
    }

    /** @param s a {@code struct ibv_mr} @param v the value for {@code s->rkey} */
    public static void rkey(MemorySegment s, int v) {
        s.set(JAVA_INT, rkey$OFFSET, v);
    }
}
