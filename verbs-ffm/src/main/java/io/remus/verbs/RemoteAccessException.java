package io.remus.verbs;

/**
 * A one-sided request was refused by the remote side ({@code IBV_WC_REM_ACCESS_ERR}): wrong
 * rkey, an address outside the remote region, or an access the region was not registered for.
 * The queue pair is in the error state afterwards: close it and build a new one.
 */
public final class RemoteAccessException extends CompletionException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a completion with status {@link CompletionStatus#REMOTE_ACCESS_ERROR}.
     *
     * @param workRequestId the failed request's id
     * @param vendorError   the provider's {@code vendor_err}
     * @param opcode        the {@code ibv_wc_opcode}
     */
    public RemoteAccessException(long workRequestId, int vendorError, int opcode) {
        super(CompletionStatus.REMOTE_ACCESS_ERROR, workRequestId, vendorError, opcode);
    }
}
