package io.remus.alock;

import io.remus.core.error.RemusException;

/**
 * A lock was used against its contract: unlocked by a handle that does not hold it, locked again
 * by the handle that holds it, used through a closed compute thread, or more locks held at once
 * than the context allows. Thrown before anything is posted, except when a spin lock's release
 * finds its word changed by something other than the lock's own atomics (its compare-and-swap then
 * changed nothing).
 */
public class LockUsageException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what was done wrong
     */
    public LockUsageException(String message) {
        super(message);
    }
}
