package io.remus.core.error;

/** How a work request completed, as verbs {@code ibv_wc_status} (the subset one-sided work and messaging meet). */
public enum CompletionStatus {
    /** {@code IBV_WC_SUCCESS}. */
    SUCCESS,
    /** {@code IBV_WC_LOC_PROT_ERR}: the local buffer is not covered by the lkey. */
    LOCAL_PROTECTION_ERROR,
    /** {@code IBV_WC_REM_ACCESS_ERR}: wrong rkey or range outside the remote region. */
    REMOTE_ACCESS_ERROR,
    /** {@code IBV_WC_REM_INV_REQ_ERR}: e.g. a misaligned atomic. */
    REMOTE_INVALID_REQUEST,
    /** {@code IBV_WC_REM_OP_ERR}: the responder could not complete the operation. */
    REMOTE_OPERATION_ERROR,
    /** {@code IBV_WC_RETRY_EXC_ERR}: the peer stopped answering. */
    RETRY_EXCEEDED,
    /** {@code IBV_WC_WR_FLUSH_ERR}: not executed because the QP was in the error state. */
    FLUSHED,
    /**
     * {@code IBV_WC_RNR_RETRY_EXC_ERR}: a {@link io.remus.core.fabric.Opcode#SEND} or
     * {@link io.remus.core.fabric.Opcode#WRITE_WITH_IMMEDIATE} found no receive posted at the peer
     * (after the transport's receiver-not-ready retries).
     */
    RECEIVER_NOT_READY,
    /**
     * {@code IBV_WC_LOC_LEN_ERR}: on a receive completion, the message was longer than the posted
     * buffer (the sender's request completes with {@link #REMOTE_INVALID_REQUEST}).
     */
    LOCAL_LENGTH_ERROR
}
