package io.remus.core.error;

/**
 * The target node stopped answering: the transport gave up after its retries (verbs
 * {@code IBV_WC_RETRY_EXC_ERR}).
 */
public class PeerUnreachableException extends RemoteOperationException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for an operation on a node that stopped answering.
     *
     * @param status the completion's error status
     * @param nodeId the target node
     * @param message what was being done
     */
    public PeerUnreachableException(CompletionStatus status, int nodeId, String message) {
        super(status, nodeId, message);
    }
}
