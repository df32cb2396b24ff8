package io.remus.ds.replicate;

import io.remus.core.error.RemusException;

/**
 * A leader's WRITE into a replica's log was refused: the replica has switched its write permission to
 * another leader (Mu's permission switch, {@link LogReplica#grantWriteTo}). The leader is deposed: the entry
 * that was being appended is not committed by it, and every later call of the leader throws this exception
 * without an RDMA operation.
 */
public class LeaderFencedException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The replica that refused the WRITE. */
    private final int refusingNode;

    /**
     * Creates the exception.
     *
     * @param refusingNode the replica that refused the WRITE
     * @param message      what was being done
     */
    public LeaderFencedException(int refusingNode, String message) {
        super(message);
        this.refusingNode = refusingNode;
    }

    /** {@return the replica node whose refusal deposed the leader} */
    public int refusingNode() {
        return refusingNode;
    }
}
