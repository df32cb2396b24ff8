package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;


/**
 * {@snippet lang = c:
 * struct rdma_addr {
 *     union {
 *         struct sockaddr         src_addr;
 *         struct sockaddr_in      src_sin;
 *         struct sockaddr_in6     src_sin6;
 *         struct sockaddr_storage src_storage;
 *     };
 *     union {
 *         struct sockaddr         dst_addr;
 *         struct sockaddr_in      dst_sin;
 *         struct sockaddr_in6     dst_sin6;
 *         struct sockaddr_storage dst_storage;
 *     };
 *     union {
 *         struct rdma_ib_addr ibaddr;
 *     } addr;
 * }
 * }
 *
 * <p>The two anonymous unions are the members {@code $anon0} (source) and {@code $anon1}
 * (destination) of the layout; their alternatives have accessors named as in C.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_addr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.unionLayout(
                    sockaddr.layout().withName("src_addr"),
                    sockaddr_in.layout().withName("src_sin"),
                    sockaddr_in6.layout().withName("src_sin6"),
                    sockaddr_storage.layout().withName("src_storage")
            ).withName("$anon0"),
            MemoryLayout.unionLayout(
                    sockaddr.layout().withName("dst_addr"),
                    sockaddr_in.layout().withName("dst_sin"),
                    sockaddr_in6.layout().withName("dst_sin6"),
                    sockaddr_storage.layout().withName("dst_storage")
            ).withName("$anon1"),
            MemoryLayout.unionLayout(
                    rdma_ib_addr.layout().withName("ibaddr")
            ).withName("addr")
    ).withName("rdma_addr");

    private rdma_addr() {
    }

    /** {@return the layout of {@code struct rdma_addr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_addr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code src_addr}. */
    public static final long src_addr$OFFSET = 0;
    /** Offset of {@code src_sin}. */
    public static final long src_sin$OFFSET = 0;
    /** Offset of {@code src_sin6}. */
    public static final long src_sin6$OFFSET = 0;
    /** Offset of {@code src_storage}. */
    public static final long src_storage$OFFSET = 0;
    /** Offset of {@code dst_addr}. */
    public static final long dst_addr$OFFSET = 128;
    /** Offset of {@code dst_sin}. */
    public static final long dst_sin$OFFSET = 128;
    /** Offset of {@code dst_sin6}. */
    public static final long dst_sin6$OFFSET = 128;
    /** Offset of {@code dst_storage}. */
    public static final long dst_storage$OFFSET = 128;
    /** Offset of {@code addr}. */
    public static final long addr$OFFSET = 256;

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->src_addr} (16 bytes) */
    public static MemorySegment src_addr(MemorySegment s) {
        return s.asSlice(src_addr$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->src_addr} (16 bytes) */
    public static void src_addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, src_addr$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->src_sin} (16 bytes) */
    public static MemorySegment src_sin(MemorySegment s) {
        return s.asSlice(src_sin$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->src_sin} (16 bytes) */
    public static void src_sin(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, src_sin$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->src_sin6} (28 bytes) */
    public static MemorySegment src_sin6(MemorySegment s) {
        return s.asSlice(src_sin6$OFFSET, 28);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->src_sin6} (28 bytes) */
    public static void src_sin6(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, src_sin6$OFFSET, 28);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->src_storage} (128 bytes) */
    public static MemorySegment src_storage(MemorySegment s) {
        return s.asSlice(src_storage$OFFSET, 128);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->src_storage} (128 bytes) */
    public static void src_storage(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, src_storage$OFFSET, 128);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->dst_addr} (16 bytes) */
    public static MemorySegment dst_addr(MemorySegment s) {
        return s.asSlice(dst_addr$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->dst_addr} (16 bytes) */
    public static void dst_addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, dst_addr$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->dst_sin} (16 bytes) */
    public static MemorySegment dst_sin(MemorySegment s) {
        return s.asSlice(dst_sin$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->dst_sin} (16 bytes) */
    public static void dst_sin(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, dst_sin$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->dst_sin6} (28 bytes) */
    public static MemorySegment dst_sin6(MemorySegment s) {
        return s.asSlice(dst_sin6$OFFSET, 28);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->dst_sin6} (28 bytes) */
    public static void dst_sin6(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, dst_sin6$OFFSET, 28);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->dst_storage} (128 bytes) */
    public static MemorySegment dst_storage(MemorySegment s) {
        return s.asSlice(dst_storage$OFFSET, 128);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->dst_storage} (128 bytes) */
    public static void dst_storage(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, dst_storage$OFFSET, 128);
    }

    /** @param s a {@code struct rdma_addr} @return a slice over {@code s->addr} (40 bytes) */
    public static MemorySegment addr(MemorySegment s) {
        return s.asSlice(addr$OFFSET, 40);
    }

    /** @param s a {@code struct rdma_addr} @param v copied into {@code s->addr} (40 bytes) */
    public static void addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, addr$OFFSET, 40);
    }
}
