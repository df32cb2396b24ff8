package io.remus.core.fabric;

/** One-sided operations, as verbs {@code ibv_wr_opcode}. */
public enum Opcode {
    /** {@code IBV_WR_RDMA_READ}: remote bytes into the local buffer. */
    READ,
    /** {@code IBV_WR_RDMA_WRITE}: local buffer bytes to remote memory. */
    WRITE,
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: 8-byte compare-and-swap; the old value lands locally. */
    COMPARE_AND_SWAP,
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: 8-byte fetch-and-add; the old value lands locally. */
    FETCH_AND_ADD
}
