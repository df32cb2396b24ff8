package io.remus.alock;

import io.remus.core.RemoteTimeoutException;

/**
 * A lock's bounded wait ran out. A queue lock (MCS, ALock) cannot withdraw a waiter from its
 * queue, so after this exception the lock word must be treated as broken.
 */
public class LockTimeoutException extends RemoteTimeoutException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what was awaited and for how long
     */
    public LockTimeoutException(String message) {
        super(message);
    }
}
