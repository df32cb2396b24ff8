package io.remus.core.error;

/**
 * The fabric completed an operation with an error status. {@link #status()} is the completion
 * status (the verbs {@code ibv_wc_status}) and {@link #nodeId()} the node the operation targeted.
 */
public class RemoteOperationException extends RemusException {
    private static final long serialVersionUID = 1L;

    private final transient CompletionStatus status;
    /** The node the operation targeted. */
    private final int nodeId;

    /**
     * Creates the exception for an operation completed with an error status; the message adds the
     * status and the node.
     *
     * @param status the completion's error status
     * @param nodeId the target node
     * @param message what was being done
     */
    public RemoteOperationException(CompletionStatus status, int nodeId, String message) {
        super(message + ": completion status " + status + " from node " + nodeId);
        this.status = status;
        this.nodeId = nodeId;
    }

    /** {@return the completion status that failed the operation} */
    public CompletionStatus status() {
        return status;
    }

    /** {@return the node the operation targeted} */
    public int nodeId() {
        return nodeId;
    }
}
