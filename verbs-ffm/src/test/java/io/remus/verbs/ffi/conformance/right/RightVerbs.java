package io.remus.verbs.ffi.conformance.right;

import io.remus.verbs.ffi.NativeFunction;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Correct function and constant declarations of libibverbs and librdmacm. */
public final class RightVerbs {
    /** A function that is also a function-like macro in the header, with a {@code size_t}. */
    public static final NativeFunction IBV_REG_MR = new NativeFunction("ibv_reg_mr",
            "struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), true, false, null);
    /** A {@code uint8_t} parameter and a union pointer. */
    public static final NativeFunction IBV_QUERY_GID = new NativeFunction("ibv_query_gid",
            "int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS), false, false, null);
    /** A {@code (void)} parameter list. */
    public static final NativeFunction RDMA_CREATE_EVENT_CHANNEL = new NativeFunction("rdma_create_event_channel",
            "struct rdma_event_channel *rdma_create_event_channel(void)",
            FunctionDescriptor.of(ADDRESS), true, false, null);
    /** A provider function pointer (a static inline verb's target). */
    public static final NativeFunction POST_SEND = new NativeFunction("ibv_context_ops.post_send",
            "int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), false, true, null);
    /** An enumerator. */
    public static final int IBV_WR_RDMA_WRITE = 0;
    /** A flag. */
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 8;
    /** An enumerator of librdmacm. */
    public static final int RDMA_PS_TCP = 0x0106;
    /** A macro declared as {@code long}. */
    public static final long RDMA_UDP_QKEY = 0x01234567L;
    /** A macro of librdmacm's address-info flags. */
    public static final int RAI_PASSIVE = 1;

    private RightVerbs() {
    }
}
