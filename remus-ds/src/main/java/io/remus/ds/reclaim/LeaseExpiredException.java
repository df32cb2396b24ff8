package io.remus.ds.reclaim;

import io.remus.core.error.RemusException;

/**
 * A guard's lease ran out ({@link Guard#check()}): other threads may have freed, and reused, blocks
 * this operation read. The operation restarts, or revalidates what it holds by incarnation.
 */
public class LeaseExpiredException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message whose lease and when it ran out
     */
    public LeaseExpiredException(String message) {
        super(message);
    }
}
