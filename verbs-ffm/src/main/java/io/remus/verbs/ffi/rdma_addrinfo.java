package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct rdma_addrinfo {
 *     int                   ai_flags;
 *     int                   ai_family;
 *     int                   ai_qp_type;
 *     int                   ai_port_space;
 *     socklen_t             ai_src_len;
 *     socklen_t             ai_dst_len;
 *     struct sockaddr      *ai_src_addr;
 *     struct sockaddr      *ai_dst_addr;
 *     char                 *ai_src_canonname;
 *     char                 *ai_dst_canonname;
 *     size_t                ai_route_len;
 *     void                 *ai_route;
 *     size_t                ai_connect_len;
 *     void                 *ai_connect;
 *     struct rdma_addrinfo *ai_next;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_addrinfo {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("ai_flags"),
            JAVA_INT.withName("ai_family"),
            JAVA_INT.withName("ai_qp_type"),
            JAVA_INT.withName("ai_port_space"),
            JAVA_INT.withName("ai_src_len"),
            JAVA_INT.withName("ai_dst_len"),
            ADDRESS.withName("ai_src_addr"),
            ADDRESS.withName("ai_dst_addr"),
            ADDRESS.withName("ai_src_canonname"),
            ADDRESS.withName("ai_dst_canonname"),
            JAVA_LONG.withName("ai_route_len"),
            ADDRESS.withName("ai_route"),
            JAVA_LONG.withName("ai_connect_len"),
            ADDRESS.withName("ai_connect"),
            ADDRESS.withName("ai_next")
    ).withName("rdma_addrinfo");

    private rdma_addrinfo() {
    }

    /** {@return the layout of {@code struct rdma_addrinfo}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_addrinfo)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code ai_flags}. */
    public static final long ai_flags$OFFSET = 0;
    /** Offset of {@code ai_family}. */
    public static final long ai_family$OFFSET = 4;
    /** Offset of {@code ai_qp_type}. */
    public static final long ai_qp_type$OFFSET = 8;
    /** Offset of {@code ai_port_space}. */
    public static final long ai_port_space$OFFSET = 12;
    /** Offset of {@code ai_src_len}. */
    public static final long ai_src_len$OFFSET = 16;
    /** Offset of {@code ai_dst_len}. */
    public static final long ai_dst_len$OFFSET = 20;
    /** Offset of {@code ai_src_addr}. */
    public static final long ai_src_addr$OFFSET = 24;
    /** Offset of {@code ai_dst_addr}. */
    public static final long ai_dst_addr$OFFSET = 32;
    /** Offset of {@code ai_src_canonname}. */
    public static final long ai_src_canonname$OFFSET = 40;
    /** Offset of {@code ai_dst_canonname}. */
    public static final long ai_dst_canonname$OFFSET = 48;
    /** Offset of {@code ai_route_len}. */
    public static final long ai_route_len$OFFSET = 56;
    /** Offset of {@code ai_route}. */
    public static final long ai_route$OFFSET = 64;
    /** Offset of {@code ai_connect_len}. */
    public static final long ai_connect_len$OFFSET = 72;
    /** Offset of {@code ai_connect}. */
    public static final long ai_connect$OFFSET = 80;
    /** Offset of {@code ai_next}. */
    public static final long ai_next$OFFSET = 88;

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_flags} */
    public static int ai_flags(MemorySegment s) {
        return s.get(JAVA_INT, ai_flags$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_flags} */
    public static void ai_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_flags$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_family} */
    public static int ai_family(MemorySegment s) {
        return s.get(JAVA_INT, ai_family$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_family} */
    public static void ai_family(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_family$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_qp_type} */
    public static int ai_qp_type(MemorySegment s) {
        return s.get(JAVA_INT, ai_qp_type$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_qp_type} */
    public static void ai_qp_type(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_qp_type$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_port_space} */
    public static int ai_port_space(MemorySegment s) {
        return s.get(JAVA_INT, ai_port_space$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_port_space} */
    public static void ai_port_space(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_port_space$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_src_len} */
    public static int ai_src_len(MemorySegment s) {
        return s.get(JAVA_INT, ai_src_len$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_src_len} */
    public static void ai_src_len(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_src_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_dst_len} */
    public static int ai_dst_len(MemorySegment s) {
        return s.get(JAVA_INT, ai_dst_len$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_dst_len} */
    public static void ai_dst_len(MemorySegment s, int v) {
        s.set(JAVA_INT, ai_dst_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_src_addr} */
    public static MemorySegment ai_src_addr(MemorySegment s) {
        return s.get(ADDRESS, ai_src_addr$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_src_addr} */
    public static void ai_src_addr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_src_addr$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_dst_addr} */
    public static MemorySegment ai_dst_addr(MemorySegment s) {
        return s.get(ADDRESS, ai_dst_addr$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_dst_addr} */
    public static void ai_dst_addr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_dst_addr$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_src_canonname} */
    public static MemorySegment ai_src_canonname(MemorySegment s) {
        return s.get(ADDRESS, ai_src_canonname$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_src_canonname} */
    public static void ai_src_canonname(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_src_canonname$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_dst_canonname} */
    public static MemorySegment ai_dst_canonname(MemorySegment s) {
        return s.get(ADDRESS, ai_dst_canonname$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_dst_canonname} */
    public static void ai_dst_canonname(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_dst_canonname$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_route_len} */
    public static long ai_route_len(MemorySegment s) {
        return s.get(JAVA_LONG, ai_route_len$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_route_len} */
    public static void ai_route_len(MemorySegment s, long v) {
        s.set(JAVA_LONG, ai_route_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_route} */
    public static MemorySegment ai_route(MemorySegment s) {
        return s.get(ADDRESS, ai_route$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_route} */
    public static void ai_route(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_route$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_connect_len} */
    public static long ai_connect_len(MemorySegment s) {
        return s.get(JAVA_LONG, ai_connect_len$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_connect_len} */
    public static void ai_connect_len(MemorySegment s, long v) {
        s.set(JAVA_LONG, ai_connect_len$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_connect} */
    public static MemorySegment ai_connect(MemorySegment s) {
        return s.get(ADDRESS, ai_connect$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_connect} */
    public static void ai_connect(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_connect$OFFSET, v);
    }

    /** @param s a {@code struct rdma_addrinfo} @return {@code s->ai_next} */
    public static MemorySegment ai_next(MemorySegment s) {
        return s.get(ADDRESS, ai_next$OFFSET);
    }

    /** @param s a {@code struct rdma_addrinfo} @param v the value for {@code s->ai_next} */
    public static void ai_next(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, ai_next$OFFSET, v);
    }
}
