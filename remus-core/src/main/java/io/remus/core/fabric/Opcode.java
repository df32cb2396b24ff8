package io.remus.core.fabric;

/**
 * What a work request does, as verbs {@code ibv_wr_opcode}, and what a receive completion reports,
 * as verbs {@code ibv_wc_opcode}: the one-sided operations, the two messaging operations a queue
 * pair posts ({@link #SEND}, {@link #WRITE_WITH_IMMEDIATE}), and the two kinds of receive
 * completion they produce at the peer ({@link #RECEIVE}, {@link #RECEIVE_WITH_IMMEDIATE}).
 */
public enum Opcode {
    /** {@code IBV_WR_RDMA_READ}: remote bytes into the local buffer. */
    READ,
    /** {@code IBV_WR_RDMA_WRITE}: local buffer bytes to remote memory. */
    WRITE,
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: 8-byte compare-and-swap; the old value lands locally. */
    COMPARE_AND_SWAP,
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: 8-byte fetch-and-add; the old value lands locally. */
    FETCH_AND_ADD,
    /**
     * {@code IBV_WR_SEND}: the local buffer's bytes land in the buffer of the oldest receive posted
     * on the peer's {@link ReceiveQueue}, which completes as {@link #RECEIVE}.
     */
    SEND,
    /**
     * {@code IBV_WR_RDMA_WRITE_WITH_IMM}: an RDMA WRITE to remote memory that then consumes the
     * oldest receive posted on the peer's {@link ReceiveQueue}, which completes as
     * {@link #RECEIVE_WITH_IMMEDIATE} carrying the request's 32-bit immediate.
     */
    WRITE_WITH_IMMEDIATE,
    /** {@code IBV_WC_RECV}: a posted receive took a peer's {@link #SEND}. Completions only. */
    RECEIVE,
    /**
     * {@code IBV_WC_RECV_RDMA_WITH_IMM}: a posted receive was consumed by a peer's
     * {@link #WRITE_WITH_IMMEDIATE}; its buffer is untouched. Completions only.
     */
    RECEIVE_WITH_IMMEDIATE
}
