package io.remus.verbs;

/** A resource (or the memory behind it) was used after it was closed. */
public final class ClosedResourceException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what was closed and what was attempted
     */
    public ClosedResourceException(String message) {
        super(message);
    }
}
