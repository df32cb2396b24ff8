package io.remus.core.error;

/**
 * The target node was opened anew since this compute thread last reached it: its process restarted (or, on
 * the simulator, the node was restarted), so the memory it had is gone, and every pointer into it, and every
 * region key read from it, is void. The operation was not posted. The compute thread has dropped what it
 * kept of the node's published regions; its next operation on the node reads them again, from the new
 * incarnation, and goes on. A caller that keeps pointers into the node (a log, a ring, a directory entry)
 * looks them up again before using them.
 *
 * <p>A subclass of {@link PeerUnreachableException}: the node the caller knew is unreachable for good.
 */
public class PeerRestartedException extends PeerUnreachableException {
    private static final long serialVersionUID = 1L;

    /** The incarnation the compute thread reached before. */
    private final long formerIncarnation;
    /** The incarnation that answers now. */
    private final long incarnation;

    /**
     * Creates the exception for an operation on a node found to be a new incarnation.
     *
     * @param nodeId            the target node
     * @param formerIncarnation the incarnation the compute thread reached before
     * @param incarnation       the incarnation that answers now
     */
    public PeerRestartedException(int nodeId, long formerIncarnation, long incarnation) {
        super(CompletionStatus.RETRY_EXCEEDED, nodeId, "node " + nodeId + " restarted (incarnation "
                + Long.toHexString(formerIncarnation) + " is gone, " + Long.toHexString(incarnation)
                + " answers): its former memory and every pointer into it are void");
        this.formerIncarnation = formerIncarnation;
        this.incarnation = incarnation;
    }

    /** {@return the incarnation reached before} */
    public long formerIncarnation() {
        return formerIncarnation;
    }

    /** {@return the incarnation that answers now} */
    public long incarnation() {
        return incarnation;
    }
}
