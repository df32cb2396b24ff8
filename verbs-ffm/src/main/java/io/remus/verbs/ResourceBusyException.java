package io.remus.verbs;

/** A resource was asked to close while resources created from it are still open. */
public final class ResourceBusyException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which resource and how many children are still open
     */
    public ResourceBusyException(String message) {
        super(message);
    }
}
