package io.remus.alock;

import io.remus.core.error.RemoteTimeoutException;

/**
 * A lock's bounded wait ran out. The handle holds nothing and stays usable, and so does the lock word: a
 * queue lock's (MCS, ALock) waiter has left the queue ({@link io.remus.alock.mcs.QueueLock}).
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
