package io.remus.verbs;

/** A blocking wait (a completion event, a connection manager event, a completion) ran past its timeout. */
public final class WaitTimeoutException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what was awaited and for how long
     */
    public WaitTimeoutException(String message) {
        super(message);
    }
}
