package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_port_attr {
 *     enum ibv_port_state    state;
 *     enum ibv_mtu        max_mtu;
 *     enum ibv_mtu        active_mtu;
 *     int            gid_tbl_len;
 *     uint32_t        port_cap_flags;
 *     uint32_t        max_msg_sz;
 *     uint32_t        bad_pkey_cntr;
 *     uint32_t        qkey_viol_cntr;
 *     uint16_t        pkey_tbl_len;
 *     uint16_t        lid;
 *     uint16_t        sm_lid;
 *     uint8_t            lmc;
 *     uint8_t            max_vl_num;
 *     uint8_t            sm_sl;
 *     uint8_t            subnet_timeout;
 *     uint8_t            init_type_reply;
 *     uint8_t            active_width;
 *     uint8_t            active_speed;
 *     uint8_t            phys_state;
 *     uint8_t            link_layer;
 *     uint8_t            flags;
 *     uint16_t        port_cap_flags2;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_port_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("state"),
            JAVA_INT.withName("max_mtu"),
            JAVA_INT.withName("active_mtu"),
            JAVA_INT.withName("gid_tbl_len"),
            JAVA_INT.withName("port_cap_flags"),
            JAVA_INT.withName("max_msg_sz"),
            JAVA_INT.withName("bad_pkey_cntr"),
            JAVA_INT.withName("qkey_viol_cntr"),
            JAVA_SHORT.withName("pkey_tbl_len"),
            JAVA_SHORT.withName("lid"),
            JAVA_SHORT.withName("sm_lid"),
            JAVA_BYTE.withName("lmc"),
            JAVA_BYTE.withName("max_vl_num"),
            JAVA_BYTE.withName("sm_sl"),
            JAVA_BYTE.withName("subnet_timeout"),
            JAVA_BYTE.withName("init_type_reply"),
            JAVA_BYTE.withName("active_width"),
            JAVA_BYTE.withName("active_speed"),
            JAVA_BYTE.withName("phys_state"),
            JAVA_BYTE.withName("link_layer"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("port_cap_flags2"),
            MemoryLayout.paddingLayout(2)
    ).withName("ibv_port_attr");

    private ibv_port_attr() {
    }

    /** {@return the layout of {@code struct ibv_port_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_port_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code state}. */
    public static final long state$OFFSET = 0;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->state} */
    public static int state(MemorySegment s) {
        return s.get(JAVA_INT, state$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->state} */
    public static void state(MemorySegment s, int v) {
        s.set(JAVA_INT, state$OFFSET, v);
    }

    /** Offset of {@code max_mtu}. */
    public static final long max_mtu$OFFSET = 4;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->max_mtu} */
    public static int max_mtu(MemorySegment s) {
        return s.get(JAVA_INT, max_mtu$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->max_mtu} */
    public static void max_mtu(MemorySegment s, int v) {
        s.set(JAVA_INT, max_mtu$OFFSET, v);
    }

    /** Offset of {@code active_mtu}. */
    public static final long active_mtu$OFFSET = 8;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->active_mtu} */
    public static int active_mtu(MemorySegment s) {
        return s.get(JAVA_INT, active_mtu$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->active_mtu} */
    public static void active_mtu(MemorySegment s, int v) {
        s.set(JAVA_INT, active_mtu$OFFSET, v);
    }

    /** Offset of {@code gid_tbl_len}. */
    public static final long gid_tbl_len$OFFSET = 12;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->gid_tbl_len} */
    public static int gid_tbl_len(MemorySegment s) {
        return s.get(JAVA_INT, gid_tbl_len$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->gid_tbl_len} */
    public static void gid_tbl_len(MemorySegment s, int v) {
        s.set(JAVA_INT, gid_tbl_len$OFFSET, v);
    }

    /** Offset of {@code port_cap_flags}. */
    public static final long port_cap_flags$OFFSET = 16;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->port_cap_flags} */
    public static int port_cap_flags(MemorySegment s) {
        return s.get(JAVA_INT, port_cap_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->port_cap_flags} */
    public static void port_cap_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, port_cap_flags$OFFSET, v);
    }

    /** Offset of {@code max_msg_sz}. */
    public static final long max_msg_sz$OFFSET = 20;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->max_msg_sz} */
    public static int max_msg_sz(MemorySegment s) {
        return s.get(JAVA_INT, max_msg_sz$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->max_msg_sz} */
    public static void max_msg_sz(MemorySegment s, int v) {
        s.set(JAVA_INT, max_msg_sz$OFFSET, v);
    }

    /** Offset of {@code bad_pkey_cntr}. */
    public static final long bad_pkey_cntr$OFFSET = 24;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->bad_pkey_cntr} */
    public static int bad_pkey_cntr(MemorySegment s) {
        return s.get(JAVA_INT, bad_pkey_cntr$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->bad_pkey_cntr} */
    public static void bad_pkey_cntr(MemorySegment s, int v) {
        s.set(JAVA_INT, bad_pkey_cntr$OFFSET, v);
    }

    /** Offset of {@code qkey_viol_cntr}. */
    public static final long qkey_viol_cntr$OFFSET = 28;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->qkey_viol_cntr} */
    public static int qkey_viol_cntr(MemorySegment s) {
        return s.get(JAVA_INT, qkey_viol_cntr$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->qkey_viol_cntr} */
    public static void qkey_viol_cntr(MemorySegment s, int v) {
        s.set(JAVA_INT, qkey_viol_cntr$OFFSET, v);
    }

    /** Offset of {@code pkey_tbl_len}. */
    public static final long pkey_tbl_len$OFFSET = 32;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->pkey_tbl_len} */
    public static short pkey_tbl_len(MemorySegment s) {
        return s.get(JAVA_SHORT, pkey_tbl_len$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->pkey_tbl_len} */
    public static void pkey_tbl_len(MemorySegment s, short v) {
        s.set(JAVA_SHORT, pkey_tbl_len$OFFSET, v);
    }

    /** Offset of {@code lid}. */
    public static final long lid$OFFSET = 34;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->lid} */
    public static short lid(MemorySegment s) {
        return s.get(JAVA_SHORT, lid$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->lid} */
    public static void lid(MemorySegment s, short v) {
        s.set(JAVA_SHORT, lid$OFFSET, v);
    }

    /** Offset of {@code sm_lid}. */
    public static final long sm_lid$OFFSET = 36;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->sm_lid} */
    public static short sm_lid(MemorySegment s) {
        return s.get(JAVA_SHORT, sm_lid$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->sm_lid} */
    public static void sm_lid(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sm_lid$OFFSET, v);
    }

    /** Offset of {@code lmc}. */
    public static final long lmc$OFFSET = 38;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->lmc} */
    public static byte lmc(MemorySegment s) {
        return s.get(JAVA_BYTE, lmc$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->lmc} */
    public static void lmc(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, lmc$OFFSET, v);
    }

    /** Offset of {@code max_vl_num}. */
    public static final long max_vl_num$OFFSET = 39;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->max_vl_num} */
    public static byte max_vl_num(MemorySegment s) {
        return s.get(JAVA_BYTE, max_vl_num$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->max_vl_num} */
    public static void max_vl_num(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, max_vl_num$OFFSET, v);
    }

    /** Offset of {@code sm_sl}. */
    public static final long sm_sl$OFFSET = 40;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->sm_sl} */
    public static byte sm_sl(MemorySegment s) {
        return s.get(JAVA_BYTE, sm_sl$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->sm_sl} */
    public static void sm_sl(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, sm_sl$OFFSET, v);
    }

    /** Offset of {@code subnet_timeout}. */
    public static final long subnet_timeout$OFFSET = 41;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->subnet_timeout} */
    public static byte subnet_timeout(MemorySegment s) {
        return s.get(JAVA_BYTE, subnet_timeout$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->subnet_timeout} */
    public static void subnet_timeout(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, subnet_timeout$OFFSET, v);
    }

    /** Offset of {@code init_type_reply}. */
    public static final long init_type_reply$OFFSET = 42;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->init_type_reply} */
    public static byte init_type_reply(MemorySegment s) {
        return s.get(JAVA_BYTE, init_type_reply$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->init_type_reply} */
    public static void init_type_reply(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, init_type_reply$OFFSET, v);
    }

    /** Offset of {@code active_width}. */
    public static final long active_width$OFFSET = 43;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->active_width} */
    public static byte active_width(MemorySegment s) {
        return s.get(JAVA_BYTE, active_width$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->active_width} */
    public static void active_width(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, active_width$OFFSET, v);
    }

    /** Offset of {@code active_speed}. */
    public static final long active_speed$OFFSET = 44;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->active_speed} */
    public static byte active_speed(MemorySegment s) {
        return s.get(JAVA_BYTE, active_speed$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->active_speed} */
    public static void active_speed(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, active_speed$OFFSET, v);
    }

    /** Offset of {@code phys_state}. */
    public static final long phys_state$OFFSET = 45;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->phys_state} */
    public static byte phys_state(MemorySegment s) {
        return s.get(JAVA_BYTE, phys_state$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->phys_state} */
    public static void phys_state(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, phys_state$OFFSET, v);
    }

    /** Offset of {@code link_layer}. */
    public static final long link_layer$OFFSET = 46;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->link_layer} */
    public static byte link_layer(MemorySegment s) {
        return s.get(JAVA_BYTE, link_layer$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->link_layer} */
    public static void link_layer(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, link_layer$OFFSET, v);
    }

    /** Offset of {@code flags}. */
    public static final long flags$OFFSET = 47;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->flags} */
    public static byte flags(MemorySegment s) {
        return s.get(JAVA_BYTE, flags$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->flags} */
    public static void flags(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, flags$OFFSET, v);
    }

    /** Offset of {@code port_cap_flags2}. */
    public static final long port_cap_flags2$OFFSET = 48;

    /** @param s a {@code struct ibv_port_attr} @return {@code s->port_cap_flags2} */
    public static short port_cap_flags2(MemorySegment s) {
        return s.get(JAVA_SHORT, port_cap_flags2$OFFSET);
    }

    /** @param s a {@code struct ibv_port_attr} @param v the value for {@code s->port_cap_flags2} */
    public static void port_cap_flags2(MemorySegment s, short v) {
        s.set(JAVA_SHORT, port_cap_flags2$OFFSET, v);
    }
}
