package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_qp_ex {
 *     struct ibv_qp qp_base;
 *     uint64_t comp_mask;
 *     uint64_t wr_id;
 *     unsigned int wr_flags;
 *     void (*wr_atomic_cmp_swp)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                   uint64_t remote_addr, uint64_t compare,
 *                   uint64_t swap);
 *     void (*wr_atomic_fetch_add)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                     uint64_t remote_addr, uint64_t add);
 *     void (*wr_bind_mw)(struct ibv_qp_ex *qp, struct ibv_mw *mw,
 *                uint32_t rkey,
 *                const struct ibv_mw_bind_info *bind_info);
 *     void (*wr_local_inv)(struct ibv_qp_ex *qp, uint32_t invalidate_rkey);
 *     void (*wr_rdma_read)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                  uint64_t remote_addr);
 *     void (*wr_rdma_write)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                   uint64_t remote_addr);
 *     void (*wr_rdma_write_imm)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                   uint64_t remote_addr, __be32 imm_data);
 *     void (*wr_send)(struct ibv_qp_ex *qp);
 *     void (*wr_send_imm)(struct ibv_qp_ex *qp, __be32 imm_data);
 *     void (*wr_send_inv)(struct ibv_qp_ex *qp, uint32_t invalidate_rkey);
 *     void (*wr_send_tso)(struct ibv_qp_ex *qp, void *hdr, uint16_t hdr_sz,
 *                 uint16_t mss);
 *     void (*wr_set_ud_addr)(struct ibv_qp_ex *qp, struct ibv_ah *ah,
 *                    uint32_t remote_qpn, uint32_t remote_qkey);
 *     void (*wr_set_xrc_srqn)(struct ibv_qp_ex *qp, uint32_t remote_srqn);
 *     void (*wr_set_inline_data)(struct ibv_qp_ex *qp, void *addr,
 *                    size_t length);
 *     void (*wr_set_inline_data_list)(struct ibv_qp_ex *qp, size_t num_buf,
 *                     const struct ibv_data_buf *buf_list);
 *     void (*wr_set_sge)(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr,
 *                uint32_t length);
 *     void (*wr_set_sge_list)(struct ibv_qp_ex *qp, size_t num_sge,
 *                 const struct ibv_sge *sg_list);
 *     void (*wr_start)(struct ibv_qp_ex *qp);
 *     int (*wr_complete)(struct ibv_qp_ex *qp);
 *     void (*wr_abort)(struct ibv_qp_ex *qp);
 *     void (*wr_atomic_write)(struct ibv_qp_ex *qp, uint32_t rkey,
 *                 uint64_t remote_addr, const void *atomic_wr);
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_qp_ex {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ibv_qp.layout().withName("qp_base"),
            JAVA_LONG.withName("comp_mask"),
            JAVA_LONG.withName("wr_id"),
            JAVA_INT.withName("wr_flags"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("wr_atomic_cmp_swp"),
            ADDRESS.withName("wr_atomic_fetch_add"),
            ADDRESS.withName("wr_bind_mw"),
            ADDRESS.withName("wr_local_inv"),
            ADDRESS.withName("wr_rdma_read"),
            ADDRESS.withName("wr_rdma_write"),
            ADDRESS.withName("wr_rdma_write_imm"),
            ADDRESS.withName("wr_send"),
            ADDRESS.withName("wr_send_imm"),
            ADDRESS.withName("wr_send_inv"),
            ADDRESS.withName("wr_send_tso"),
            ADDRESS.withName("wr_set_ud_addr"),
            ADDRESS.withName("wr_set_xrc_srqn"),
            ADDRESS.withName("wr_set_inline_data"),
            ADDRESS.withName("wr_set_inline_data_list"),
            ADDRESS.withName("wr_set_sge"),
            ADDRESS.withName("wr_set_sge_list"),
            ADDRESS.withName("wr_start"),
            ADDRESS.withName("wr_complete"),
            ADDRESS.withName("wr_abort"),
            ADDRESS.withName("wr_atomic_write")
    ).withName("ibv_qp_ex");

    private ibv_qp_ex() {
    }

    /** {@return the layout of {@code struct ibv_qp_ex}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_qp_ex)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code qp_base}. */
    public static final long qp_base$OFFSET = 0;

    /** @param s a {@code struct ibv_qp_ex} @return the nested struct {@code s->qp_base}, as a slice of {@code s} */
    public static MemorySegment qp_base(MemorySegment s) {
        return s.asSlice(qp_base$OFFSET, 160);
    }

    /** Offset of {@code comp_mask}. */
    public static final long comp_mask$OFFSET = 160;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->comp_mask} */
    public static long comp_mask(MemorySegment s) {
        return s.get(JAVA_LONG, comp_mask$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->comp_mask} */
    public static void comp_mask(MemorySegment s, long v) {
        s.set(JAVA_LONG, comp_mask$OFFSET, v);
    }

    /** Offset of {@code wr_id}. */
    public static final long wr_id$OFFSET = 168;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_id} */
    public static long wr_id(MemorySegment s) {
        return s.get(JAVA_LONG, wr_id$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_id} */
    public static void wr_id(MemorySegment s, long v) {
        s.set(JAVA_LONG, wr_id$OFFSET, v);
    }

    /** Offset of {@code wr_flags}. */
    public static final long wr_flags$OFFSET = 176;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_flags} */
    public static int wr_flags(MemorySegment s) {
        return s.get(JAVA_INT, wr_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_flags} */
    public static void wr_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, wr_flags$OFFSET, v);
    }

    /** Offset of {@code wr_atomic_cmp_swp}. */
    public static final long wr_atomic_cmp_swp$OFFSET = 184;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_atomic_cmp_swp} */
    public static MemorySegment wr_atomic_cmp_swp(MemorySegment s) {
        return s.get(ADDRESS, wr_atomic_cmp_swp$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_atomic_cmp_swp} */
    public static void wr_atomic_cmp_swp(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_atomic_cmp_swp$OFFSET, v);
    }

    /** Offset of {@code wr_atomic_fetch_add}. */
    public static final long wr_atomic_fetch_add$OFFSET = 192;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_atomic_fetch_add} */
    public static MemorySegment wr_atomic_fetch_add(MemorySegment s) {
        return s.get(ADDRESS, wr_atomic_fetch_add$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_atomic_fetch_add} */
    public static void wr_atomic_fetch_add(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_atomic_fetch_add$OFFSET, v);
    }

    /** Offset of {@code wr_bind_mw}. */
    public static final long wr_bind_mw$OFFSET = 200;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_bind_mw} */
    public static MemorySegment wr_bind_mw(MemorySegment s) {
        return s.get(ADDRESS, wr_bind_mw$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_bind_mw} */
    public static void wr_bind_mw(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_bind_mw$OFFSET, v);
    }

    /** Offset of {@code wr_local_inv}. */
    public static final long wr_local_inv$OFFSET = 208;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_local_inv} */
    public static MemorySegment wr_local_inv(MemorySegment s) {
        return s.get(ADDRESS, wr_local_inv$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_local_inv} */
    public static void wr_local_inv(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_local_inv$OFFSET, v);
    }

    /** Offset of {@code wr_rdma_read}. */
    public static final long wr_rdma_read$OFFSET = 216;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_rdma_read} */
    public static MemorySegment wr_rdma_read(MemorySegment s) {
        return s.get(ADDRESS, wr_rdma_read$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_rdma_read} */
    public static void wr_rdma_read(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_rdma_read$OFFSET, v);
    }

    /** Offset of {@code wr_rdma_write}. */
    public static final long wr_rdma_write$OFFSET = 224;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_rdma_write} */
    public static MemorySegment wr_rdma_write(MemorySegment s) {
        return s.get(ADDRESS, wr_rdma_write$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_rdma_write} */
    public static void wr_rdma_write(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_rdma_write$OFFSET, v);
    }

    /** Offset of {@code wr_rdma_write_imm}. */
    public static final long wr_rdma_write_imm$OFFSET = 232;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_rdma_write_imm} */
    public static MemorySegment wr_rdma_write_imm(MemorySegment s) {
        return s.get(ADDRESS, wr_rdma_write_imm$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_rdma_write_imm} */
    public static void wr_rdma_write_imm(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_rdma_write_imm$OFFSET, v);
    }

    /** Offset of {@code wr_send}. */
    public static final long wr_send$OFFSET = 240;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_send} */
    public static MemorySegment wr_send(MemorySegment s) {
        return s.get(ADDRESS, wr_send$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_send} */
    public static void wr_send(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_send$OFFSET, v);
    }

    /** Offset of {@code wr_send_imm}. */
    public static final long wr_send_imm$OFFSET = 248;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_send_imm} */
    public static MemorySegment wr_send_imm(MemorySegment s) {
        return s.get(ADDRESS, wr_send_imm$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_send_imm} */
    public static void wr_send_imm(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_send_imm$OFFSET, v);
    }

    /** Offset of {@code wr_send_inv}. */
    public static final long wr_send_inv$OFFSET = 256;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_send_inv} */
    public static MemorySegment wr_send_inv(MemorySegment s) {
        return s.get(ADDRESS, wr_send_inv$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_send_inv} */
    public static void wr_send_inv(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_send_inv$OFFSET, v);
    }

    /** Offset of {@code wr_send_tso}. */
    public static final long wr_send_tso$OFFSET = 264;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_send_tso} */
    public static MemorySegment wr_send_tso(MemorySegment s) {
        return s.get(ADDRESS, wr_send_tso$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_send_tso} */
    public static void wr_send_tso(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_send_tso$OFFSET, v);
    }

    /** Offset of {@code wr_set_ud_addr}. */
    public static final long wr_set_ud_addr$OFFSET = 272;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_ud_addr} */
    public static MemorySegment wr_set_ud_addr(MemorySegment s) {
        return s.get(ADDRESS, wr_set_ud_addr$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_ud_addr} */
    public static void wr_set_ud_addr(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_ud_addr$OFFSET, v);
    }

    /** Offset of {@code wr_set_xrc_srqn}. */
    public static final long wr_set_xrc_srqn$OFFSET = 280;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_xrc_srqn} */
    public static MemorySegment wr_set_xrc_srqn(MemorySegment s) {
        return s.get(ADDRESS, wr_set_xrc_srqn$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_xrc_srqn} */
    public static void wr_set_xrc_srqn(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_xrc_srqn$OFFSET, v);
    }

    /** Offset of {@code wr_set_inline_data}. */
    public static final long wr_set_inline_data$OFFSET = 288;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_inline_data} */
    public static MemorySegment wr_set_inline_data(MemorySegment s) {
        return s.get(ADDRESS, wr_set_inline_data$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_inline_data} */
    public static void wr_set_inline_data(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_inline_data$OFFSET, v);
    }

    /** Offset of {@code wr_set_inline_data_list}. */
    public static final long wr_set_inline_data_list$OFFSET = 296;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_inline_data_list} */
    public static MemorySegment wr_set_inline_data_list(MemorySegment s) {
        return s.get(ADDRESS, wr_set_inline_data_list$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_inline_data_list} */
    public static void wr_set_inline_data_list(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_inline_data_list$OFFSET, v);
    }

    /** Offset of {@code wr_set_sge}. */
    public static final long wr_set_sge$OFFSET = 304;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_sge} */
    public static MemorySegment wr_set_sge(MemorySegment s) {
        return s.get(ADDRESS, wr_set_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_sge} */
    public static void wr_set_sge(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_sge$OFFSET, v);
    }

    /** Offset of {@code wr_set_sge_list}. */
    public static final long wr_set_sge_list$OFFSET = 312;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_set_sge_list} */
    public static MemorySegment wr_set_sge_list(MemorySegment s) {
        return s.get(ADDRESS, wr_set_sge_list$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_set_sge_list} */
    public static void wr_set_sge_list(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_set_sge_list$OFFSET, v);
    }

    /** Offset of {@code wr_start}. */
    public static final long wr_start$OFFSET = 320;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_start} */
    public static MemorySegment wr_start(MemorySegment s) {
        return s.get(ADDRESS, wr_start$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_start} */
    public static void wr_start(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_start$OFFSET, v);
    }

    /** Offset of {@code wr_complete}. */
    public static final long wr_complete$OFFSET = 328;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_complete} */
    public static MemorySegment wr_complete(MemorySegment s) {
        return s.get(ADDRESS, wr_complete$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_complete} */
    public static void wr_complete(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_complete$OFFSET, v);
    }

    /** Offset of {@code wr_abort}. */
    public static final long wr_abort$OFFSET = 336;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_abort} */
    public static MemorySegment wr_abort(MemorySegment s) {
        return s.get(ADDRESS, wr_abort$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_abort} */
    public static void wr_abort(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_abort$OFFSET, v);
    }

    /** Offset of {@code wr_atomic_write}. */
    public static final long wr_atomic_write$OFFSET = 344;

    /** @param s a {@code struct ibv_qp_ex} @return {@code s->wr_atomic_write} */
    public static MemorySegment wr_atomic_write(MemorySegment s) {
        return s.get(ADDRESS, wr_atomic_write$OFFSET);
    }

    /** @param s a {@code struct ibv_qp_ex} @param v the value for {@code s->wr_atomic_write} */
    public static void wr_atomic_write(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, wr_atomic_write$OFFSET, v);
    }
}
