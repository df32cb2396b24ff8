package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

/** The opcodes of a work completion ({@code enum ibv_wc_opcode}), as {@link WorkCompletions#opcode(int)} returns them. */
public final class CompletionOpcode {
    /** {@code IBV_WC_SEND}. */
    public static final int SEND = IbVerbs.IBV_WC_SEND;
    /** {@code IBV_WC_RDMA_WRITE}. */
    public static final int RDMA_WRITE = IbVerbs.IBV_WC_RDMA_WRITE;
    /** {@code IBV_WC_RDMA_READ}. */
    public static final int RDMA_READ = IbVerbs.IBV_WC_RDMA_READ;
    /** {@code IBV_WC_COMP_SWAP}. */
    public static final int COMPARE_AND_SWAP = IbVerbs.IBV_WC_COMP_SWAP;
    /** {@code IBV_WC_FETCH_ADD}. */
    public static final int FETCH_AND_ADD = IbVerbs.IBV_WC_FETCH_ADD;
    /** {@code IBV_WC_RECV}. */
    public static final int RECEIVE = IbVerbs.IBV_WC_RECV;
    /** {@code IBV_WC_RECV_RDMA_WITH_IMM}: an RDMA write with immediate consumed a receive. */
    public static final int RECEIVE_RDMA_WITH_IMMEDIATE = IbVerbs.IBV_WC_RECV_RDMA_WITH_IMM;

    private CompletionOpcode() {
    }
}
