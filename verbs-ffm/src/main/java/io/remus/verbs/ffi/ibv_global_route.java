package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_global_route {
 *     union ibv_gid        dgid;
 *     uint32_t        flow_label;
 *     uint8_t            sgid_index;
 *     uint8_t            hop_limit;
 *     uint8_t            traffic_class;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_global_route {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ibv_gid.layout().withName("dgid"),
            JAVA_INT.withName("flow_label"),
            JAVA_BYTE.withName("sgid_index"),
            JAVA_BYTE.withName("hop_limit"),
            JAVA_BYTE.withName("traffic_class"),
            MemoryLayout.paddingLayout(1)
    ).withName("ibv_global_route");

    private ibv_global_route() {
    }

    /** {@return the layout of {@code struct ibv_global_route}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_global_route)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code dgid}. */
    public static final long dgid$OFFSET = 0;

    /** @param s a {@code struct ibv_global_route} @return the nested struct {@code s->dgid}, as a slice of {@code s} */
    public static MemorySegment dgid(MemorySegment s) {
        return s.asSlice(dgid$OFFSET, 16);
    }

    /** Offset of {@code flow_label}. */
    public static final long flow_label$OFFSET = 16;

    /** @param s a {@code struct ibv_global_route} @return {@code s->flow_label} */
    public static int flow_label(MemorySegment s) {
        return s.get(JAVA_INT, flow_label$OFFSET);
    }

    /** @param s a {@code struct ibv_global_route} @param v the value for {@code s->flow_label} */
    public static void flow_label(MemorySegment s, int v) {
        s.set(JAVA_INT, flow_label$OFFSET, v);
    }

    /** Offset of {@code sgid_index}. */
    public static final long sgid_index$OFFSET = 20;

    /** @param s a {@code struct ibv_global_route} @return {@code s->sgid_index} */
    public static byte sgid_index(MemorySegment s) {
        return s.get(JAVA_BYTE, sgid_index$OFFSET);
    }

    /** @param s a {@code struct ibv_global_route} @param v the value for {@code s->sgid_index} */
    public static void sgid_index(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, sgid_index$OFFSET, v);
    }

    /** Offset of {@code hop_limit}. */
    public static final long hop_limit$OFFSET = 21;

    /** @param s a {@code struct ibv_global_route} @return {@code s->hop_limit} */
    public static byte hop_limit(MemorySegment s) {
        return s.get(JAVA_BYTE, hop_limit$OFFSET);
    }

    /** @param s a {@code struct ibv_global_route} @param v the value for {@code s->hop_limit} */
    public static void hop_limit(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, hop_limit$OFFSET, v);
    }

    /** Offset of {@code traffic_class}. */
    public static final long traffic_class$OFFSET = 22;

    /** @param s a {@code struct ibv_global_route} @return {@code s->traffic_class} */
    public static byte traffic_class(MemorySegment s) {
        return s.get(JAVA_BYTE, traffic_class$OFFSET);
    }

    /** @param s a {@code struct ibv_global_route} @param v the value for {@code s->traffic_class} */
    public static void traffic_class(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, traffic_class$OFFSET, v);
    }
}
