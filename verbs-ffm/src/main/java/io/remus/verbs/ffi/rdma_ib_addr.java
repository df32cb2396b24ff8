package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct rdma_ib_addr {
 *     union ibv_gid sgid;
 *     union ibv_gid dgid;
 *     __be16        pkey;
 * }
 * }
 *
 * <p>The GIDs are {@code union ibv_gid} ({@link ibv_gid}'s layout, whose accessors apply); {@code pkey} is in network byte order.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_ib_addr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ibv_gid.layout().withName("sgid"),
            ibv_gid.layout().withName("dgid"),
            JAVA_SHORT.withName("pkey"),
            MemoryLayout.paddingLayout(6)
    ).withName("rdma_ib_addr");

    private rdma_ib_addr() {
    }

    /** {@return the layout of {@code struct rdma_ib_addr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_ib_addr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code sgid}. */
    public static final long sgid$OFFSET = 0;
    /** Offset of {@code dgid}. */
    public static final long dgid$OFFSET = 16;
    /** Offset of {@code pkey}. */
    public static final long pkey$OFFSET = 32;

    /** @param s a {@code struct rdma_ib_addr} @return a slice over {@code s->sgid} (16 bytes) */
    public static MemorySegment sgid(MemorySegment s) {
        return s.asSlice(sgid$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_ib_addr} @param v copied into {@code s->sgid} (16 bytes) */
    public static void sgid(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, sgid$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_ib_addr} @return a slice over {@code s->dgid} (16 bytes) */
    public static MemorySegment dgid(MemorySegment s) {
        return s.asSlice(dgid$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_ib_addr} @param v copied into {@code s->dgid} (16 bytes) */
    public static void dgid(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, dgid$OFFSET, 16);
    }

    /** @param s a {@code struct rdma_ib_addr} @return {@code s->pkey} */
    public static short pkey(MemorySegment s) {
        return s.get(JAVA_SHORT, pkey$OFFSET);
    }

    /** @param s a {@code struct rdma_ib_addr} @param v the value for {@code s->pkey} */
    public static void pkey(MemorySegment s, short v) {
        s.set(JAVA_SHORT, pkey$OFFSET, v);
    }

}
