package io.remus.ds.replicate;

import io.remus.core.error.RemusException;

/**
 * A member's log is further behind than the entries the other members' logs still hold (their rings were
 * reused past it), and no snapshot could bring it up to date: {@link LogLeader#takeOver} on such a member first
 * looks for a whole image, in a granting follower's snapshot region, that covers entries the rings still follow
 * and fits the member's own region ({@link LogReplica#takeSnapshot}, {@link StateMachine#snapshot}); this is
 * thrown when there is none (the logs have no snapshot regions, their programs took no snapshot recent enough,
 * or the image changed while it was read).
 */
public class ReplicaBehindException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The member that is behind. */
    private final int nodeId;
    /** The entries it applied. */
    private final long applied;
    /** The first entry the other members still hold. */
    private final long firstHeld;

    /**
     * Creates the exception.
     *
     * @param nodeId    the member that is behind
     * @param applied   the entries it applied
     * @param firstHeld the first entry the other members still hold
     * @param message   what was being done
     */
    public ReplicaBehindException(int nodeId, long applied, long firstHeld, String message) {
        super(message);
        this.nodeId = nodeId;
        this.applied = applied;
        this.firstHeld = firstHeld;
    }

    /** {@return the member that is behind} */
    public int nodeId() {
        return nodeId;
    }

    /** {@return the entries it applied} */
    public long applied() {
        return applied;
    }

    /** {@return the first entry the other members still hold} */
    public long firstHeld() {
        return firstHeld;
    }
}
