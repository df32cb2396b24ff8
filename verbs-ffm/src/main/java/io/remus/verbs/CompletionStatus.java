package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

/** The status codes of a work completion ({@code enum ibv_wc_status}) the API names, and their text. */
public final class CompletionStatus {
    /** {@code IBV_WC_SUCCESS}. */
    public static final int SUCCESS = IbVerbs.IBV_WC_SUCCESS;
    /** {@code IBV_WC_LOC_LEN_ERR}. */
    public static final int LOCAL_LENGTH_ERROR = IbVerbs.IBV_WC_LOC_LEN_ERR;
    /** {@code IBV_WC_LOC_PROT_ERR}. */
    public static final int LOCAL_PROTECTION_ERROR = IbVerbs.IBV_WC_LOC_PROT_ERR;
    /** {@code IBV_WC_WR_FLUSH_ERR}: the queue pair was in the error state. */
    public static final int WORK_REQUEST_FLUSHED = IbVerbs.IBV_WC_WR_FLUSH_ERR;
    /** {@code IBV_WC_REM_ACCESS_ERR}. */
    public static final int REMOTE_ACCESS_ERROR = IbVerbs.IBV_WC_REM_ACCESS_ERR;
    /** {@code IBV_WC_REM_INV_REQ_ERR}. */
    public static final int REMOTE_INVALID_REQUEST = IbVerbs.IBV_WC_REM_INV_REQ_ERR;
    /** {@code IBV_WC_RETRY_EXC_ERR}. */
    public static final int RETRY_EXCEEDED = IbVerbs.IBV_WC_RETRY_EXC_ERR;
    /** {@code IBV_WC_RNR_RETRY_EXC_ERR}. */
    public static final int RECEIVER_NOT_READY_RETRY_EXCEEDED = IbVerbs.IBV_WC_RNR_RETRY_EXC_ERR;

    private CompletionStatus() {
    }

    /**
     * Describes a status code.
     *
     * @param status an {@code ibv_wc_status} code
     * @return its text, as {@code ibv_wc_status_str} gives it
     */
    public static String describe(int status) {
        return IbVerbs.ibv_wc_status_str(status).reinterpret(256).getString(0);
    }
}
