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
 * struct ibv_device_attr {
 *     char            fw_ver[64];
 *     __be64            node_guid;
 *     __be64            sys_image_guid;
 *     uint64_t        max_mr_size;
 *     uint64_t        page_size_cap;
 *     uint32_t        vendor_id;
 *     uint32_t        vendor_part_id;
 *     uint32_t        hw_ver;
 *     int            max_qp;
 *     int            max_qp_wr;
 *     unsigned int        device_cap_flags;
 *     int            max_sge;
 *     int            max_sge_rd;
 *     int            max_cq;
 *     int            max_cqe;
 *     int            max_mr;
 *     int            max_pd;
 *     int            max_qp_rd_atom;
 *     int            max_ee_rd_atom;
 *     int            max_res_rd_atom;
 *     int            max_qp_init_rd_atom;
 *     int            max_ee_init_rd_atom;
 *     enum ibv_atomic_cap    atomic_cap;
 *     int            max_ee;
 *     int            max_rdd;
 *     int            max_mw;
 *     int            max_raw_ipv6_qp;
 *     int            max_raw_ethy_qp;
 *     int            max_mcast_grp;
 *     int            max_mcast_qp_attach;
 *     int            max_total_mcast_qp_attach;
 *     int            max_ah;
 *     int            max_fmr;
 *     int            max_map_per_fmr;
 *     int            max_srq;
 *     int            max_srq_wr;
 *     int            max_srq_sge;
 *     uint16_t        max_pkeys;
 *     uint8_t            local_ca_ack_delay;
 *     uint8_t            phys_port_cnt;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_device_attr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("fw_ver"),
            JAVA_LONG.withName("node_guid"),
            JAVA_LONG.withName("sys_image_guid"),
            JAVA_LONG.withName("max_mr_size"),
            JAVA_LONG.withName("page_size_cap"),
            JAVA_INT.withName("vendor_id"),
            JAVA_INT.withName("vendor_part_id"),
            JAVA_INT.withName("hw_ver"),
            JAVA_INT.withName("max_qp"),
            JAVA_INT.withName("max_qp_wr"),
            JAVA_INT.withName("device_cap_flags"),
            JAVA_INT.withName("max_sge"),
            JAVA_INT.withName("max_sge_rd"),
            JAVA_INT.withName("max_cq"),
            JAVA_INT.withName("max_cqe"),
            JAVA_INT.withName("max_mr"),
            JAVA_INT.withName("max_pd"),
            JAVA_INT.withName("max_qp_rd_atom"),
            JAVA_INT.withName("max_ee_rd_atom"),
            JAVA_INT.withName("max_res_rd_atom"),
            JAVA_INT.withName("max_qp_init_rd_atom"),
            JAVA_INT.withName("max_ee_init_rd_atom"),
            JAVA_INT.withName("atomic_cap"),
            JAVA_INT.withName("max_ee"),
            JAVA_INT.withName("max_rdd"),
            JAVA_INT.withName("max_mw"),
            JAVA_INT.withName("max_raw_ipv6_qp"),
            JAVA_INT.withName("max_raw_ethy_qp"),
            JAVA_INT.withName("max_mcast_grp"),
            JAVA_INT.withName("max_mcast_qp_attach"),
            JAVA_INT.withName("max_total_mcast_qp_attach"),
            JAVA_INT.withName("max_ah"),
            JAVA_INT.withName("max_fmr"),
            JAVA_INT.withName("max_map_per_fmr"),
            JAVA_INT.withName("max_srq"),
            JAVA_INT.withName("max_srq_wr"),
            JAVA_INT.withName("max_srq_sge"),
            JAVA_SHORT.withName("max_pkeys"),
            JAVA_BYTE.withName("local_ca_ack_delay"),
            JAVA_BYTE.withName("phys_port_cnt"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_device_attr");

    private ibv_device_attr() {
    }

    /** {@return the layout of {@code struct ibv_device_attr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_device_attr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code fw_ver}. */
    public static final long fw_ver$OFFSET = 0;

    /** @param s a {@code struct ibv_device_attr} @return the array {@code s->fw_ver}, as a slice of {@code s} */
    public static MemorySegment fw_ver(MemorySegment s) {
        return s.asSlice(fw_ver$OFFSET, 64);
    }

    /** Offset of {@code node_guid}. */
    public static final long node_guid$OFFSET = 64;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->node_guid} */
    public static long node_guid(MemorySegment s) {
        return s.get(JAVA_LONG, node_guid$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->node_guid} */
    public static void node_guid(MemorySegment s, long v) {
        s.set(JAVA_LONG, node_guid$OFFSET, v);
    }

    /** Offset of {@code sys_image_guid}. */
    public static final long sys_image_guid$OFFSET = 72;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->sys_image_guid} */
    public static long sys_image_guid(MemorySegment s) {
        return s.get(JAVA_LONG, sys_image_guid$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->sys_image_guid} */
    public static void sys_image_guid(MemorySegment s, long v) {
        s.set(JAVA_LONG, sys_image_guid$OFFSET, v);
    }

    /** Offset of {@code max_mr_size}. */
    public static final long max_mr_size$OFFSET = 80;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_mr_size} */
    public static long max_mr_size(MemorySegment s) {
        return s.get(JAVA_LONG, max_mr_size$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_mr_size} */
    public static void max_mr_size(MemorySegment s, long v) {
        s.set(JAVA_LONG, max_mr_size$OFFSET, v);
    }

    /** Offset of {@code page_size_cap}. */
    public static final long page_size_cap$OFFSET = 88;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->page_size_cap} */
    public static long page_size_cap(MemorySegment s) {
        return s.get(JAVA_LONG, page_size_cap$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->page_size_cap} */
    public static void page_size_cap(MemorySegment s, long v) {
        s.set(JAVA_LONG, page_size_cap$OFFSET, v);
    }

    /** Offset of {@code vendor_id}. */
    public static final long vendor_id$OFFSET = 96;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->vendor_id} */
    public static int vendor_id(MemorySegment s) {
        return s.get(JAVA_INT, vendor_id$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->vendor_id} */
    public static void vendor_id(MemorySegment s, int v) {
        s.set(JAVA_INT, vendor_id$OFFSET, v);
    }

    /** Offset of {@code vendor_part_id}. */
    public static final long vendor_part_id$OFFSET = 100;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->vendor_part_id} */
    public static int vendor_part_id(MemorySegment s) {
        return s.get(JAVA_INT, vendor_part_id$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->vendor_part_id} */
    public static void vendor_part_id(MemorySegment s, int v) {
        s.set(JAVA_INT, vendor_part_id$OFFSET, v);
    }

    /** Offset of {@code hw_ver}. */
    public static final long hw_ver$OFFSET = 104;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->hw_ver} */
    public static int hw_ver(MemorySegment s) {
        return s.get(JAVA_INT, hw_ver$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->hw_ver} */
    public static void hw_ver(MemorySegment s, int v) {
        s.set(JAVA_INT, hw_ver$OFFSET, v);
    }

    /** Offset of {@code max_qp}. */
    public static final long max_qp$OFFSET = 108;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_qp} */
    public static int max_qp(MemorySegment s) {
        return s.get(JAVA_INT, max_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_qp} */
    public static void max_qp(MemorySegment s, int v) {
        s.set(JAVA_INT, max_qp$OFFSET, v);
    }

    /** Offset of {@code max_qp_wr}. */
    public static final long max_qp_wr$OFFSET = 112;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_qp_wr} */
    public static int max_qp_wr(MemorySegment s) {
        return s.get(JAVA_INT, max_qp_wr$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_qp_wr} */
    public static void max_qp_wr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_qp_wr$OFFSET, v);
    }

    /** Offset of {@code device_cap_flags}. */
    public static final long device_cap_flags$OFFSET = 116;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->device_cap_flags} */
    public static int device_cap_flags(MemorySegment s) {
        return s.get(JAVA_INT, device_cap_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->device_cap_flags} */
    public static void device_cap_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, device_cap_flags$OFFSET, v);
    }

    /** Offset of {@code max_sge}. */
    public static final long max_sge$OFFSET = 120;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_sge} */
    public static int max_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_sge} */
    public static void max_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_sge$OFFSET, v);
    }

    /** Offset of {@code max_sge_rd}. */
    public static final long max_sge_rd$OFFSET = 124;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_sge_rd} */
    public static int max_sge_rd(MemorySegment s) {
        return s.get(JAVA_INT, max_sge_rd$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_sge_rd} */
    public static void max_sge_rd(MemorySegment s, int v) {
        s.set(JAVA_INT, max_sge_rd$OFFSET, v);
    }

    /** Offset of {@code max_cq}. */
    public static final long max_cq$OFFSET = 128;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_cq} */
    public static int max_cq(MemorySegment s) {
        return s.get(JAVA_INT, max_cq$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_cq} */
    public static void max_cq(MemorySegment s, int v) {
        s.set(JAVA_INT, max_cq$OFFSET, v);
    }

    /** Offset of {@code max_cqe}. */
    public static final long max_cqe$OFFSET = 132;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_cqe} */
    public static int max_cqe(MemorySegment s) {
        return s.get(JAVA_INT, max_cqe$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_cqe} */
    public static void max_cqe(MemorySegment s, int v) {
        s.set(JAVA_INT, max_cqe$OFFSET, v);
    }

    /** Offset of {@code max_mr}. */
    public static final long max_mr$OFFSET = 136;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_mr} */
    public static int max_mr(MemorySegment s) {
        return s.get(JAVA_INT, max_mr$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_mr} */
    public static void max_mr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_mr$OFFSET, v);
    }

    /** Offset of {@code max_pd}. */
    public static final long max_pd$OFFSET = 140;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_pd} */
    public static int max_pd(MemorySegment s) {
        return s.get(JAVA_INT, max_pd$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_pd} */
    public static void max_pd(MemorySegment s, int v) {
        s.set(JAVA_INT, max_pd$OFFSET, v);
    }

    /** Offset of {@code max_qp_rd_atom}. */
    public static final long max_qp_rd_atom$OFFSET = 144;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_qp_rd_atom} */
    public static int max_qp_rd_atom(MemorySegment s) {
        return s.get(JAVA_INT, max_qp_rd_atom$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_qp_rd_atom} */
    public static void max_qp_rd_atom(MemorySegment s, int v) {
        s.set(JAVA_INT, max_qp_rd_atom$OFFSET, v);
    }

    /** Offset of {@code max_ee_rd_atom}. */
    public static final long max_ee_rd_atom$OFFSET = 148;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_ee_rd_atom} */
    public static int max_ee_rd_atom(MemorySegment s) {
        return s.get(JAVA_INT, max_ee_rd_atom$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_ee_rd_atom} */
    public static void max_ee_rd_atom(MemorySegment s, int v) {
        s.set(JAVA_INT, max_ee_rd_atom$OFFSET, v);
    }

    /** Offset of {@code max_res_rd_atom}. */
    public static final long max_res_rd_atom$OFFSET = 152;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_res_rd_atom} */
    public static int max_res_rd_atom(MemorySegment s) {
        return s.get(JAVA_INT, max_res_rd_atom$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_res_rd_atom} */
    public static void max_res_rd_atom(MemorySegment s, int v) {
        s.set(JAVA_INT, max_res_rd_atom$OFFSET, v);
    }

    /** Offset of {@code max_qp_init_rd_atom}. */
    public static final long max_qp_init_rd_atom$OFFSET = 156;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_qp_init_rd_atom} */
    public static int max_qp_init_rd_atom(MemorySegment s) {
        return s.get(JAVA_INT, max_qp_init_rd_atom$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_qp_init_rd_atom} */
    public static void max_qp_init_rd_atom(MemorySegment s, int v) {
        s.set(JAVA_INT, max_qp_init_rd_atom$OFFSET, v);
    }

    /** Offset of {@code max_ee_init_rd_atom}. */
    public static final long max_ee_init_rd_atom$OFFSET = 160;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_ee_init_rd_atom} */
    public static int max_ee_init_rd_atom(MemorySegment s) {
        return s.get(JAVA_INT, max_ee_init_rd_atom$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_ee_init_rd_atom} */
    public static void max_ee_init_rd_atom(MemorySegment s, int v) {
        s.set(JAVA_INT, max_ee_init_rd_atom$OFFSET, v);
    }

    /** Offset of {@code atomic_cap}. */
    public static final long atomic_cap$OFFSET = 164;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->atomic_cap} */
    public static int atomic_cap(MemorySegment s) {
        return s.get(JAVA_INT, atomic_cap$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->atomic_cap} */
    public static void atomic_cap(MemorySegment s, int v) {
        s.set(JAVA_INT, atomic_cap$OFFSET, v);
    }

    /** Offset of {@code max_ee}. */
    public static final long max_ee$OFFSET = 168;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_ee} */
    public static int max_ee(MemorySegment s) {
        return s.get(JAVA_INT, max_ee$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_ee} */
    public static void max_ee(MemorySegment s, int v) {
        s.set(JAVA_INT, max_ee$OFFSET, v);
    }

    /** Offset of {@code max_rdd}. */
    public static final long max_rdd$OFFSET = 172;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_rdd} */
    public static int max_rdd(MemorySegment s) {
        return s.get(JAVA_INT, max_rdd$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_rdd} */
    public static void max_rdd(MemorySegment s, int v) {
        s.set(JAVA_INT, max_rdd$OFFSET, v);
    }

    /** Offset of {@code max_mw}. */
    public static final long max_mw$OFFSET = 176;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_mw} */
    public static int max_mw(MemorySegment s) {
        return s.get(JAVA_INT, max_mw$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_mw} */
    public static void max_mw(MemorySegment s, int v) {
        s.set(JAVA_INT, max_mw$OFFSET, v);
    }

    /** Offset of {@code max_raw_ipv6_qp}. */
    public static final long max_raw_ipv6_qp$OFFSET = 180;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_raw_ipv6_qp} */
    public static int max_raw_ipv6_qp(MemorySegment s) {
        return s.get(JAVA_INT, max_raw_ipv6_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_raw_ipv6_qp} */
    public static void max_raw_ipv6_qp(MemorySegment s, int v) {
        s.set(JAVA_INT, max_raw_ipv6_qp$OFFSET, v);
    }

    /** Offset of {@code max_raw_ethy_qp}. */
    public static final long max_raw_ethy_qp$OFFSET = 184;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_raw_ethy_qp} */
    public static int max_raw_ethy_qp(MemorySegment s) {
        return s.get(JAVA_INT, max_raw_ethy_qp$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_raw_ethy_qp} */
    public static void max_raw_ethy_qp(MemorySegment s, int v) {
        s.set(JAVA_INT, max_raw_ethy_qp$OFFSET, v);
    }

    /** Offset of {@code max_mcast_grp}. */
    public static final long max_mcast_grp$OFFSET = 188;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_mcast_grp} */
    public static int max_mcast_grp(MemorySegment s) {
        return s.get(JAVA_INT, max_mcast_grp$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_mcast_grp} */
    public static void max_mcast_grp(MemorySegment s, int v) {
        s.set(JAVA_INT, max_mcast_grp$OFFSET, v);
    }

    /** Offset of {@code max_mcast_qp_attach}. */
    public static final long max_mcast_qp_attach$OFFSET = 192;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_mcast_qp_attach} */
    public static int max_mcast_qp_attach(MemorySegment s) {
        return s.get(JAVA_INT, max_mcast_qp_attach$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_mcast_qp_attach} */
    public static void max_mcast_qp_attach(MemorySegment s, int v) {
        s.set(JAVA_INT, max_mcast_qp_attach$OFFSET, v);
    }

    /** Offset of {@code max_total_mcast_qp_attach}. */
    public static final long max_total_mcast_qp_attach$OFFSET = 196;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_total_mcast_qp_attach} */
    public static int max_total_mcast_qp_attach(MemorySegment s) {
        return s.get(JAVA_INT, max_total_mcast_qp_attach$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_total_mcast_qp_attach} */
    public static void max_total_mcast_qp_attach(MemorySegment s, int v) {
        s.set(JAVA_INT, max_total_mcast_qp_attach$OFFSET, v);
    }

    /** Offset of {@code max_ah}. */
    public static final long max_ah$OFFSET = 200;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_ah} */
    public static int max_ah(MemorySegment s) {
        return s.get(JAVA_INT, max_ah$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_ah} */
    public static void max_ah(MemorySegment s, int v) {
        s.set(JAVA_INT, max_ah$OFFSET, v);
    }

    /** Offset of {@code max_fmr}. */
    public static final long max_fmr$OFFSET = 204;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_fmr} */
    public static int max_fmr(MemorySegment s) {
        return s.get(JAVA_INT, max_fmr$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_fmr} */
    public static void max_fmr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_fmr$OFFSET, v);
    }

    /** Offset of {@code max_map_per_fmr}. */
    public static final long max_map_per_fmr$OFFSET = 208;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_map_per_fmr} */
    public static int max_map_per_fmr(MemorySegment s) {
        return s.get(JAVA_INT, max_map_per_fmr$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_map_per_fmr} */
    public static void max_map_per_fmr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_map_per_fmr$OFFSET, v);
    }

    /** Offset of {@code max_srq}. */
    public static final long max_srq$OFFSET = 212;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_srq} */
    public static int max_srq(MemorySegment s) {
        return s.get(JAVA_INT, max_srq$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_srq} */
    public static void max_srq(MemorySegment s, int v) {
        s.set(JAVA_INT, max_srq$OFFSET, v);
    }

    /** Offset of {@code max_srq_wr}. */
    public static final long max_srq_wr$OFFSET = 216;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_srq_wr} */
    public static int max_srq_wr(MemorySegment s) {
        return s.get(JAVA_INT, max_srq_wr$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_srq_wr} */
    public static void max_srq_wr(MemorySegment s, int v) {
        s.set(JAVA_INT, max_srq_wr$OFFSET, v);
    }

    /** Offset of {@code max_srq_sge}. */
    public static final long max_srq_sge$OFFSET = 220;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_srq_sge} */
    public static int max_srq_sge(MemorySegment s) {
        return s.get(JAVA_INT, max_srq_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_srq_sge} */
    public static void max_srq_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, max_srq_sge$OFFSET, v);
    }

    /** Offset of {@code max_pkeys}. */
    public static final long max_pkeys$OFFSET = 224;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->max_pkeys} */
    public static short max_pkeys(MemorySegment s) {
        return s.get(JAVA_SHORT, max_pkeys$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->max_pkeys} */
    public static void max_pkeys(MemorySegment s, short v) {
        s.set(JAVA_SHORT, max_pkeys$OFFSET, v);
    }

    /** Offset of {@code local_ca_ack_delay}. */
    public static final long local_ca_ack_delay$OFFSET = 226;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->local_ca_ack_delay} */
    public static byte local_ca_ack_delay(MemorySegment s) {
        return s.get(JAVA_BYTE, local_ca_ack_delay$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->local_ca_ack_delay} */
    public static void local_ca_ack_delay(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, local_ca_ack_delay$OFFSET, v);
    }

    /** Offset of {@code phys_port_cnt}. */
    public static final long phys_port_cnt$OFFSET = 227;

    /** @param s a {@code struct ibv_device_attr} @return {@code s->phys_port_cnt} */
    public static byte phys_port_cnt(MemorySegment s) {
        return s.get(JAVA_BYTE, phys_port_cnt$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr} @param v the value for {@code s->phys_port_cnt} */
    public static void phys_port_cnt(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, phys_port_cnt$OFFSET, v);
    }
}
