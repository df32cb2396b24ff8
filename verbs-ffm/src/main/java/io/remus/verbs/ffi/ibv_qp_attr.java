package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_qp_attr {
 *     enum ibv_qp_state    qp_state;
 *     enum ibv_qp_state    cur_qp_state;
 *     enum ibv_mtu        path_mtu;
 *     enum ibv_mig_state    path_mig_state;
 *     uint32_t        qkey;
 *     uint32_t        rq_psn;
 *     uint32_t        sq_psn;
 *     uint32_t        dest_qp_num;
 *     unsigned int        qp_access_flags;
 *     struct ibv_qp_cap    cap;
 *     struct ibv_ah_attr    ah_attr;
 *     struct ibv_ah_attr    alt_ah_attr;
 *     uint16_t        pkey_index;
 *     uint16_t        alt_pkey_index;
 *     uint8_t            en_sqd_async_notify;
 *     uint8_t            sq_draining;
 *     uint8_t            max_rd_atomic;
 *     uint8_t            max_dest_rd_atomic;
 *     uint8_t            min_rnr_timer;
 *     uint8_t            port_num;
 *     uint8_t            timeout;
 *     uint8_t            retry_cnt;
 *     uint8_t            rnr_retry;
 *     uint8_t            alt_port_num;
 *     uint8_t            alt_timeout;
 *     uint32_t        rate_limit;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_qp_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("qp_state"),
            JAVA_INT.withName("cur_qp_state"),
            JAVA_INT.withName("path_mtu"),
            JAVA_INT.withName("path_mig_state"),
            JAVA_INT.withName("qkey"),
            JAVA_INT.withName("rq_psn"),
            JAVA_INT.withName("sq_psn"),
            JAVA_INT.withName("dest_qp_num"),
            JAVA_INT.withName("qp_access_flags"),
            ibv_qp_cap.layout().withName("cap"),
            ibv_ah_attr.layout().withName("ah_attr"),
            ibv_ah_attr.layout().withName("alt_ah_attr"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("alt_pkey_index"),
            JAVA_BYTE.withName("en_sqd_async_notify"),
            JAVA_BYTE.withName("sq_draining"),
            JAVA_BYTE.withName("max_rd_atomic"),
            JAVA_BYTE.withName("max_dest_rd_atomic"),
            JAVA_BYTE.withName("min_rnr_timer"),
            JAVA_BYTE.withName("port_num"),
            JAVA_BYTE.withName("timeout"),
            JAVA_BYTE.withName("retry_cnt"),
            JAVA_BYTE.withName("rnr_retry"),
            JAVA_BYTE.withName("alt_port_num"),
            JAVA_BYTE.withName("alt_timeout"),
            MemoryLayout.paddingLayout(1),
            JAVA_INT.withName("rate_limit"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_qp_attr");

    private ibv_qp_attr() {
    }

    /** {@return the layout of {@code struct ibv_qp_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_qp_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code qp_state}. */
    public static final long qp_state$OFFSET = 0;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->qp_state} */
    public static int qp_state(MemorySegment s) {
        return s.get(JAVA_INT, qp_state$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->qp_state} */
    public static void qp_state(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_state$OFFSET, v);
    }

    /** Offset of {@code cur_qp_state}. */
    public static final long cur_qp_state$OFFSET = 4;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->cur_qp_state} */
    public static int cur_qp_state(MemorySegment s) {
        return s.get(JAVA_INT, cur_qp_state$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->cur_qp_state} */
    public static void cur_qp_state(MemorySegment s, int v) {
        s.set(JAVA_INT, cur_qp_state$OFFSET, v);
    }

    /** Offset of {@code path_mtu}. */
    public static final long path_mtu$OFFSET = 8;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->path_mtu} */
    public static int path_mtu(MemorySegment s) {
        return s.get(JAVA_INT, path_mtu$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->path_mtu} */
    public static void path_mtu(MemorySegment s, int v) {
        s.set(JAVA_INT, path_mtu$OFFSET, v);
    }

    /** Offset of {@code path_mig_state}. */
    public static final long path_mig_state$OFFSET = 12;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->path_mig_state} */
    public static int path_mig_state(MemorySegment s) {
        return s.get(JAVA_INT, path_mig_state$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->path_mig_state} */
    public static void path_mig_state(MemorySegment s, int v) {
        s.set(JAVA_INT, path_mig_state$OFFSET, v);
    }

    /** Offset of {@code qkey}. */
    public static final long qkey$OFFSET = 16;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->qkey} */
    public static int qkey(MemorySegment s) {
        return s.get(JAVA_INT, qkey$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->qkey} */
    public static void qkey(MemorySegment s, int v) {
        s.set(JAVA_INT, qkey$OFFSET, v);
    }

    /** Offset of {@code rq_psn}. */
    public static final long rq_psn$OFFSET = 20;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->rq_psn} */
    public static int rq_psn(MemorySegment s) {
        return s.get(JAVA_INT, rq_psn$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->rq_psn} */
    public static void rq_psn(MemorySegment s, int v) {
        s.set(JAVA_INT, rq_psn$OFFSET, v);
    }

    /** Offset of {@code sq_psn}. */
    public static final long sq_psn$OFFSET = 24;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->sq_psn} */
    public static int sq_psn(MemorySegment s) {
        return s.get(JAVA_INT, sq_psn$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->sq_psn} */
    public static void sq_psn(MemorySegment s, int v) {
        s.set(JAVA_INT, sq_psn$OFFSET, v);
    }

    /** Offset of {@code dest_qp_num}. */
    public static final long dest_qp_num$OFFSET = 28;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->dest_qp_num} */
    public static int dest_qp_num(MemorySegment s) {
        return s.get(JAVA_INT, dest_qp_num$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->dest_qp_num} */
    public static void dest_qp_num(MemorySegment s, int v) {
        s.set(JAVA_INT, dest_qp_num$OFFSET, v);
    }

    /** Offset of {@code qp_access_flags}. */
    public static final long qp_access_flags$OFFSET = 32;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->qp_access_flags} */
    public static int qp_access_flags(MemorySegment s) {
        return s.get(JAVA_INT, qp_access_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->qp_access_flags} */
    public static void qp_access_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, qp_access_flags$OFFSET, v);
    }

    /** Offset of {@code cap}. */
    public static final long cap$OFFSET = 36;

    /** @param s a {@code struct ibv_qp_attr} @return the nested struct {@code s->cap}, as a slice of {@code s} */
    public static MemorySegment cap(MemorySegment s) {
        return s.asSlice(cap$OFFSET, 20);
    }

    /** Offset of {@code ah_attr}. */
    public static final long ah_attr$OFFSET = 56;

    /** @param s a {@code struct ibv_qp_attr} @return the nested struct {@code s->ah_attr}, as a slice of {@code s} */
    public static MemorySegment ah_attr(MemorySegment s) {
        return s.asSlice(ah_attr$OFFSET, 32);
    }

    /** Offset of {@code alt_ah_attr}. */
    public static final long alt_ah_attr$OFFSET = 88;

    /** @param s a {@code struct ibv_qp_attr} @return the nested struct {@code s->alt_ah_attr}, as a slice of {@code s} */
    public static MemorySegment alt_ah_attr(MemorySegment s) {
        return s.asSlice(alt_ah_attr$OFFSET, 32);
    }

    /** Offset of {@code pkey_index}. */
    public static final long pkey_index$OFFSET = 120;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->pkey_index} */
    public static short pkey_index(MemorySegment s) {
        return s.get(JAVA_SHORT, pkey_index$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->pkey_index} */
    public static void pkey_index(MemorySegment s, short v) {
        s.set(JAVA_SHORT, pkey_index$OFFSET, v);
    }

    /** Offset of {@code alt_pkey_index}. */
    public static final long alt_pkey_index$OFFSET = 122;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->alt_pkey_index} */
    public static short alt_pkey_index(MemorySegment s) {
        return s.get(JAVA_SHORT, alt_pkey_index$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->alt_pkey_index} */
    public static void alt_pkey_index(MemorySegment s, short v) {
        s.set(JAVA_SHORT, alt_pkey_index$OFFSET, v);
    }

    /** Offset of {@code en_sqd_async_notify}. */
    public static final long en_sqd_async_notify$OFFSET = 124;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->en_sqd_async_notify} */
    public static byte en_sqd_async_notify(MemorySegment s) {
        return s.get(JAVA_BYTE, en_sqd_async_notify$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->en_sqd_async_notify} */
    public static void en_sqd_async_notify(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, en_sqd_async_notify$OFFSET, v);
    }

    /** Offset of {@code sq_draining}. */
    public static final long sq_draining$OFFSET = 125;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->sq_draining} */
    public static byte sq_draining(MemorySegment s) {
        return s.get(JAVA_BYTE, sq_draining$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->sq_draining} */
    public static void sq_draining(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, sq_draining$OFFSET, v);
    }

    /** Offset of {@code max_rd_atomic}. */
    public static final long max_rd_atomic$OFFSET = 126;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->max_rd_atomic} */
    public static byte max_rd_atomic(MemorySegment s) {
        return s.get(JAVA_BYTE, max_rd_atomic$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->max_rd_atomic} */
    public static void max_rd_atomic(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, max_rd_atomic$OFFSET, v);
    }

    /** Offset of {@code max_dest_rd_atomic}. */
    public static final long max_dest_rd_atomic$OFFSET = 127;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->max_dest_rd_atomic} */
    public static byte max_dest_rd_atomic(MemorySegment s) {
        return s.get(JAVA_BYTE, max_dest_rd_atomic$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->max_dest_rd_atomic} */
    public static void max_dest_rd_atomic(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, max_dest_rd_atomic$OFFSET, v);
    }

    /** Offset of {@code min_rnr_timer}. */
    public static final long min_rnr_timer$OFFSET = 128;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->min_rnr_timer} */
    public static byte min_rnr_timer(MemorySegment s) {
        return s.get(JAVA_BYTE, min_rnr_timer$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->min_rnr_timer} */
    public static void min_rnr_timer(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, min_rnr_timer$OFFSET, v);
    }

    /** Offset of {@code port_num}. */
    public static final long port_num$OFFSET = 129;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->port_num} */
    public static byte port_num(MemorySegment s) {
        return s.get(JAVA_BYTE, port_num$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->port_num} */
    public static void port_num(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, port_num$OFFSET, v);
    }

    /** Offset of {@code timeout}. */
    public static final long timeout$OFFSET = 130;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->timeout} */
    public static byte timeout(MemorySegment s) {
        return s.get(JAVA_BYTE, timeout$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->timeout} */
    public static void timeout(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, timeout$OFFSET, v);
    }

    /** Offset of {@code retry_cnt}. */
    public static final long retry_cnt$OFFSET = 131;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->retry_cnt} */
    public static byte retry_cnt(MemorySegment s) {
        return s.get(JAVA_BYTE, retry_cnt$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->retry_cnt} */
    public static void retry_cnt(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, retry_cnt$OFFSET, v);
    }

    /** Offset of {@code rnr_retry}. */
    public static final long rnr_retry$OFFSET = 132;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->rnr_retry} */
    public static byte rnr_retry(MemorySegment s) {
        return s.get(JAVA_BYTE, rnr_retry$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->rnr_retry} */
    public static void rnr_retry(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, rnr_retry$OFFSET, v);
    }

    /** Offset of {@code alt_port_num}. */
    public static final long alt_port_num$OFFSET = 133;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->alt_port_num} */
    public static byte alt_port_num(MemorySegment s) {
        return s.get(JAVA_BYTE, alt_port_num$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->alt_port_num} */
    public static void alt_port_num(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, alt_port_num$OFFSET, v);
    }

    /** Offset of {@code alt_timeout}. */
    public static final long alt_timeout$OFFSET = 134;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->alt_timeout} */
    public static byte alt_timeout(MemorySegment s) {
        return s.get(JAVA_BYTE, alt_timeout$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->alt_timeout} */
    public static void alt_timeout(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, alt_timeout$OFFSET, v);
    }

    /** Offset of {@code rate_limit}. */
    public static final long rate_limit$OFFSET = 136;

    /** @param s a {@code struct ibv_qp_attr} @return {@code s->rate_limit} */
    public static int rate_limit(MemorySegment s) {
        return s.get(JAVA_INT, rate_limit$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_attr} @param v the value for {@code s->rate_limit} */
    public static void rate_limit(MemorySegment s, int v) {
        s.set(JAVA_INT, rate_limit$OFFSET, v);
    }
}
