package io.remus.verbs;

/**
 * A work request completed with an error status ({@code enum ibv_wc_status}). Made on the
 * control path from a {@link WorkCompletions} entry by {@link WorkCompletions#throwIfFailed(int)}.
 */
public class CompletionException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The {@code ibv_wc_status} code. */
    private final int status;
    /** The failed request's id. */
    private final long workRequestId;
    /** The provider's {@code vendor_err}. */
    private final int vendorError;
    /** The {@code ibv_wc_opcode}. */
    private final int opcode;

    /**
     * Creates the exception for a completion with an error status; the message names the status,
     * its text and the vendor error.
     *
     * @param status        the {@code ibv_wc_status} code
     * @param workRequestId the failed request's id
     * @param vendorError   the provider's {@code vendor_err}
     * @param opcode        the {@code ibv_wc_opcode} (meaningful only for some errors)
     */
    public CompletionException(int status, long workRequestId, int vendorError, int opcode) {
        super("work request " + workRequestId + " completed with status " + status + " ("
                + CompletionStatus.describe(status) + "), vendor error 0x" + Integer.toHexString(vendorError));
        this.status = status;
        this.workRequestId = workRequestId;
        this.vendorError = vendorError;
        this.opcode = opcode;
    }

    /**
     * Creates the exception for a failed completion, typed by its status.
     *
     * @param status        the {@code ibv_wc_status} code
     * @param workRequestId the failed request's id
     * @param vendorError   the provider's {@code vendor_err}
     * @param opcode        the {@code ibv_wc_opcode}
     * @return a {@link RemoteAccessException} for {@link CompletionStatus#REMOTE_ACCESS_ERROR}, else a plain one
     */
    public static CompletionException of(int status, long workRequestId, int vendorError, int opcode) {
        return status == CompletionStatus.REMOTE_ACCESS_ERROR
                ? new RemoteAccessException(workRequestId, vendorError, opcode)
                : new CompletionException(status, workRequestId, vendorError, opcode);
    }

    /** {@return the {@code ibv_wc_status} code} */
    public int status() {
        return status;
    }

    /** {@return the status' text, as {@code ibv_wc_status_str} gives it} */
    public String statusText() {
        return CompletionStatus.describe(status);
    }

    /** {@return the failed request's id} */
    public long workRequestId() {
        return workRequestId;
    }

    /** {@return the provider's {@code vendor_err}} */
    public int vendorError() {
        return vendorError;
    }

    /** {@return the {@code ibv_wc_opcode} the completion reported} */
    public int opcode() {
        return opcode;
    }
}
