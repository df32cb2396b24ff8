package io.remus.core.error;

/**
 * A bounded wait ran out: an operation's completion, a barrier or a shutdown did not arrive
 * within the configured timeout.
 */
public class RemoteTimeoutException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what was awaited and for how long
     */
    public RemoteTimeoutException(String message) {
        super(message);
    }
}
