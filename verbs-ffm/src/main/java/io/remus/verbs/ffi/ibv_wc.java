package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_wc {
 *     uint64_t        wr_id;
 *     enum ibv_wc_status    status;
 *     enum ibv_wc_opcode    opcode;
 *     uint32_t        vendor_err;
 *     uint32_t        byte_len;
 *     union {
 *         __be32        imm_data;
 *         uint32_t    invalidated_rkey;
 *     };
 *     uint32_t        qp_num;
 *     uint32_t        src_qp;
 *     unsigned int        wc_flags;
 *     uint16_t        pkey_index;
 *     uint16_t        slid;
 *     uint8_t            sl;
 *     uint8_t            dlid_path_bits;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_wc {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("wr_id"),
            JAVA_INT.withName("status"),
            JAVA_INT.withName("opcode"),
            JAVA_INT.withName("vendor_err"),
            JAVA_INT.withName("byte_len"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("imm_data"),
                    JAVA_INT.withName("invalidated_rkey")
            ).withName("$anon0"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("src_qp"),
            JAVA_INT.withName("wc_flags"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("slid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("dlid_path_bits"),
            MemoryLayout.paddingLayout(2)
    ).withName("ibv_wc");

    private ibv_wc() {
    }

    /** {@return the layout of {@code struct ibv_wc}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_wc)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code wr_id}. */
    public static final long wr_id$OFFSET = 0;

    /** @param s a {@code struct ibv_wc} @return {@code s->wr_id} */
    public static long wr_id(MemorySegment s) {
        return s.get(JAVA_LONG, wr_id$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->wr_id} */
    public static void wr_id(MemorySegment s, long v) {
        s.set(JAVA_LONG, wr_id$OFFSET, v);
    }

    /** Offset of {@code status}. */
    public static final long status$OFFSET = 8;

    /** @param s a {@code struct ibv_wc} @return {@code s->status} */
    public static int status(MemorySegment s) {
        return s.get(JAVA_INT, status$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->status} */
    public static void status(MemorySegment s, int v) {
        s.set(JAVA_INT, status$OFFSET, v);
    }

    /** Offset of {@code opcode}. */
    public static final long opcode$OFFSET = 12;

    /** @param s a {@code struct ibv_wc} @return {@code s->opcode} */
    public static int opcode(MemorySegment s) {
        return s.get(JAVA_INT, opcode$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->opcode} */
    public static void opcode(MemorySegment s, int v) {
        s.set(JAVA_INT, opcode$OFFSET, v);
    }

    /** Offset of {@code vendor_err}. */
    public static final long vendor_err$OFFSET = 16;

    /** @param s a {@code struct ibv_wc} @return {@code s->vendor_err} */
    public static int vendor_err(MemorySegment s) {
        return s.get(JAVA_INT, vendor_err$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->vendor_err} */
    public static void vendor_err(MemorySegment s, int v) {
        s.set(JAVA_INT, vendor_err$OFFSET, v);
    }

    /** Offset of {@code byte_len}. */
    public static final long byte_len$OFFSET = 20;

    /** @param s a {@code struct ibv_wc} @return {@code s->byte_len} */
    public static int byte_len(MemorySegment s) {
        return s.get(JAVA_INT, byte_len$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->byte_len} */
    public static void byte_len(MemorySegment s, int v) {
        s.set(JAVA_INT, byte_len$OFFSET, v);
    }

    /** Offset of {@code imm_data}. */
    public static final long imm_data$OFFSET = 24;

    /** @param s a {@code struct ibv_wc} @return {@code s->imm_data} */
    public static int imm_data(MemorySegment s) {
        return s.get(JAVA_INT, imm_data$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->imm_data} */
    public static void imm_data(MemorySegment s, int v) {
        s.set(JAVA_INT, imm_data$OFFSET, v);
    }

    /** Offset of {@code invalidated_rkey}. */
    public static final long invalidated_rkey$OFFSET = 24;

    /** @param s a {@code struct ibv_wc} @return {@code s->invalidated_rkey} */
    public static int invalidated_rkey(MemorySegment s) {
        return s.get(JAVA_INT, invalidated_rkey$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->invalidated_rkey} */
    public static void invalidated_rkey(MemorySegment s, int v) {
        s.set(JAVA_INT, invalidated_rkey$OFFSET, v);
    }

    /** Offset of {@code qp_num}. */
    public static final long qp_num$OFFSET = 28;

    /** @param s a {@code struct ibv_wc} @return {@code s->qp_num} */
    public static int qp_num(MemorySegment s) {
        return s.get(JAVA_INT, qp_num$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->qp_num} */
    public static void qp_num(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_num$OFFSET, v);
    }

    /** Offset of {@code src_qp}. */
    public static final long src_qp$OFFSET = 32;

    /** @param s a {@code struct ibv_wc} @return {@code s->src_qp} */
    public static int src_qp(MemorySegment s) {
        return s.get(JAVA_INT, src_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->src_qp} */
    public static void src_qp(MemorySegment s, int v) {
        s.set(JAVA_INT, src_qp$OFFSET, v);
    }

    /** Offset of {@code wc_flags}. */
    public static final long wc_flags$OFFSET = 36;

    /** @param s a {@code struct ibv_wc} @return {@code s->wc_flags} */
    public static int wc_flags(MemorySegment s) {
        return s.get(JAVA_INT, wc_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->wc_flags} */
    public static void wc_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, wc_flags$OFFSET, v);
    }

    /** Offset of {@code pkey_index}. */
    public static final long pkey_index$OFFSET = 40;

    /** @param s a {@code struct ibv_wc} @return {@code s->pkey_index} */
    public static short pkey_index(MemorySegment s) {
        return s.get(JAVA_SHORT, pkey_index$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->pkey_index} */
    public static void pkey_index(MemorySegment s, short v) {
        s.set(JAVA_SHORT, pkey_index$OFFSET, v);
    }

    /** Offset of {@code slid}. */
    public static final long slid$OFFSET = 42;

    /** @param s a {@code struct ibv_wc} @return {@code s->slid} */
    public static short slid(MemorySegment s) {
        return s.get(JAVA_SHORT, slid$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->slid} */
    public static void slid(MemorySegment s, short v) {
        s.set(JAVA_SHORT, slid$OFFSET, v);
    }

    /** Offset of {@code sl}. */
    public static final long sl$OFFSET = 44;

    /** @param s a {@code struct ibv_wc} @return {@code s->sl} */
    public static byte sl(MemorySegment s) {
        return s.get(JAVA_BYTE, sl$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->sl} */
    public static void sl(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, sl$OFFSET, v);
    }

    /** Offset of {@code dlid_path_bits}. */
    public static final long dlid_path_bits$OFFSET = 45;

    /** @param s a {@code struct ibv_wc} @return {@code s->dlid_path_bits} */
    public static byte dlid_path_bits(MemorySegment s) {
        return s.get(JAVA_BYTE, dlid_path_bits$OFFSET);
    }

    /** @param s a {@code struct ibv_wc} @param v the value for {@code s->dlid_path_bits} */
    public static void dlid_path_bits(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, dlid_path_bits$OFFSET, v);
    }
}
