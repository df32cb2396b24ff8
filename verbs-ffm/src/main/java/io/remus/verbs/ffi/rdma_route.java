package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_route {
 *     struct rdma_addr        addr;
 *     struct ibv_sa_path_rec *path_rec;
 *     int                     num_paths;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_route {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            rdma_addr.layout().withName("addr"),
            ADDRESS.withName("path_rec"),
            JAVA_INT.withName("num_paths"),
            MemoryLayout.paddingLayout(4)
    ).withName("rdma_route");

    private rdma_route() {
    }

    /** {@return the layout of {@code struct rdma_route}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_route)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code addr}. */
    public static final long addr$OFFSET = 0;
    /** Offset of {@code path_rec}. */
    public static final long path_rec$OFFSET = 296;
    /** Offset of {@code num_paths}. */
    public static final long num_paths$OFFSET = 304;

    /** @param s a {@code struct rdma_route} @return a slice over {@code s->addr} (296 bytes) */
    public static MemorySegment addr(MemorySegment s) {
        return s.asSlice(addr$OFFSET, 296);
    }

    /** @param s a {@code struct rdma_route} @param v copied into {@code s->addr} (296 bytes) */
    public static void addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, addr$OFFSET, 296);
    }

    /** @param s a {@code struct rdma_route} @return {@code s->path_rec} */
    public static MemorySegment path_rec(MemorySegment s) {
        return s.get(ADDRESS, path_rec$OFFSET);
    }

    /** @param s a {@code struct rdma_route} @param v the value for {@code s->path_rec} */
    public static void path_rec(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, path_rec$OFFSET, v);
    }

    /** @param s a {@code struct rdma_route} @return {@code s->num_paths} */
    public static int num_paths(MemorySegment s) {
        return s.get(JAVA_INT, num_paths$OFFSET);
    }

    /** @param s a {@code struct rdma_route} @param v the value for {@code s->num_paths} */
    public static void num_paths(MemorySegment s, int v) {
        s.set(JAVA_INT, num_paths$OFFSET, v);
    }
}
