package io.remus.verbs.ffi.conformance.right;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code struct ibv_send_wr}: anonymous unions ({@code $anon0}, {@code $anon1}), a named union of
 * named structs ({@code wr.rdma.rkey}), an embedded struct ({@code bind_mw.bind_info}).
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_send_wr {
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("wr_id"),
            ADDRESS.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge"),
            JAVA_INT.withName("opcode"),
            JAVA_INT.withName("send_flags"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("imm_data"),
                    JAVA_INT.withName("invalidate_rkey")).withName("$anon0"),
            MemoryLayout.unionLayout(
                    MemoryLayout.structLayout(
                            JAVA_LONG.withName("remote_addr"),
                            JAVA_INT.withName("rkey"),
                            MemoryLayout.paddingLayout(4)).withName("rdma"),
                    MemoryLayout.structLayout(
                            JAVA_LONG.withName("remote_addr"),
                            JAVA_LONG.withName("compare_add"),
                            JAVA_LONG.withName("swap"),
                            JAVA_INT.withName("rkey"),
                            MemoryLayout.paddingLayout(4)).withName("atomic"),
                    MemoryLayout.structLayout(
                            ADDRESS.withName("ah"),
                            JAVA_INT.withName("remote_qpn"),
                            JAVA_INT.withName("remote_qkey")).withName("ud")).withName("wr"),
            MemoryLayout.unionLayout(
                    MemoryLayout.structLayout(JAVA_INT.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.unionLayout(
                    MemoryLayout.structLayout(
                            ADDRESS.withName("mw"),
                            JAVA_INT.withName("rkey"),
                            MemoryLayout.paddingLayout(4),
                            ibv_mw_bind_info.layout().withName("bind_info")).withName("bind_mw"),
                    MemoryLayout.structLayout(
                            ADDRESS.withName("hdr"),
                            JAVA_SHORT.withName("hdr_sz"),
                            JAVA_SHORT.withName("mss"),
                            MemoryLayout.paddingLayout(4)).withName("tso")).withName("$anon1")
    ).withName("ibv_send_wr");

    /** Offset of {@code imm_data} (inside an anonymous union). */
    public static final long imm_data$OFFSET = 36;
    /** Offset of {@code wr.rdma.rkey}. */
    public static final long wr_rdma_rkey$OFFSET = 48;
    /** Offset of {@code tso.mss} (inside an anonymous union). */
    public static final long tso$mss$OFFSET = 90;

    private ibv_send_wr() {
    }

    /** @return the layout of {@code struct ibv_send_wr} */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
