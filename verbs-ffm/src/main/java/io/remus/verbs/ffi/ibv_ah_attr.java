package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_ah_attr {
 *     struct ibv_global_route    grh;
 *     uint16_t        dlid;
 *     uint8_t            sl;
 *     uint8_t            src_path_bits;
 *     uint8_t            static_rate;
 *     uint8_t            is_global;
 *     uint8_t            port_num;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_ah_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ibv_global_route.layout().withName("grh"),
            JAVA_SHORT.withName("dlid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("src_path_bits"),
            JAVA_BYTE.withName("static_rate"),
            JAVA_BYTE.withName("is_global"),
            JAVA_BYTE.withName("port_num"),
            MemoryLayout.paddingLayout(1)
    ).withName("ibv_ah_attr");

    private ibv_ah_attr() {
    }

    /** {@return the layout of {@code struct ibv_ah_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_ah_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code grh}. */
    public static final long grh$OFFSET = 0;

    /** @param s a {@code struct ibv_ah_attr} @return the nested struct {@code s->grh}, as a slice of {@code s} */
    public static MemorySegment grh(MemorySegment s) {
        return s.asSlice(grh$OFFSET, 24);
    }

    /** Offset of {@code dlid}. */
    public static final long dlid$OFFSET = 24;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->dlid} */
    public static short dlid(MemorySegment s) {
        return s.get(JAVA_SHORT, dlid$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->dlid} */
    public static void dlid(MemorySegment s, short v) {
        s.set(JAVA_SHORT, dlid$OFFSET, v);
    }

    /** Offset of {@code sl}. */
    public static final long sl$OFFSET = 26;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->sl} */
    public static byte sl(MemorySegment s) {
        return s.get(JAVA_BYTE, sl$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->sl} */
    public static void sl(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, sl$OFFSET, v);
    }

    /** Offset of {@code src_path_bits}. */
    public static final long src_path_bits$OFFSET = 27;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->src_path_bits} */
    public static byte src_path_bits(MemorySegment s) {
        return s.get(JAVA_BYTE, src_path_bits$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->src_path_bits} */
    public static void src_path_bits(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, src_path_bits$OFFSET, v);
    }

    /** Offset of {@code static_rate}. */
    public static final long static_rate$OFFSET = 28;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->static_rate} */
    public static byte static_rate(MemorySegment s) {
        return s.get(JAVA_BYTE, static_rate$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->static_rate} */
    public static void static_rate(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, static_rate$OFFSET, v);
    }

    /** Offset of {@code is_global}. */
    public static final long is_global$OFFSET = 29;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->is_global} */
    public static byte is_global(MemorySegment s) {
        return s.get(JAVA_BYTE, is_global$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->is_global} */
    public static void is_global(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, is_global$OFFSET, v);
    }

    /** Offset of {@code port_num}. */
    public static final long port_num$OFFSET = 30;

    /** @param s a {@code struct ibv_ah_attr} @return {@code s->port_num} */
    public static byte port_num(MemorySegment s) {
        return s.get(JAVA_BYTE, port_num$OFFSET);
    }

    /** @param s a {@code struct ibv_ah_attr} @param v the value for {@code s->port_num} */
    public static void port_num(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, port_num$OFFSET, v);
    }
}
