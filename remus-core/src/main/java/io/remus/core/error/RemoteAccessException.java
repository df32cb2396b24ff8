package io.remus.core.error;

/**
 * The target NIC refused the access: wrong rkey, a range outside the registered region, a region
 * that was deregistered, or an invalid request (verbs {@code IBV_WC_REM_ACCESS_ERR},
 * {@code IBV_WC_REM_INV_REQ_ERR}).
 */
public class RemoteAccessException extends RemoteOperationException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for an access the target NIC refused.
     *
     * @param status the completion's error status
     * @param nodeId the target node
     * @param message what was being done
     */
    public RemoteAccessException(CompletionStatus status, int nodeId, String message) {
        super(status, nodeId, message);
    }
}
