package io.remus.ds.delegate;

import io.remus.core.error.RemoteTimeoutException;

/**
 * A delegated operation's response did not arrive by the caller's deadline: the trustee stopped
 * serving, died, or is overloaded. The operation may or may not have run, and may still run later.
 */
public class TrusteeTimeoutException extends RemoteTimeoutException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which trustee, which operation and property, and how long the caller waited
     */
    public TrusteeTimeoutException(String message) {
        super(message);
    }
}
