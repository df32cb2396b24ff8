package io.remus.verbs;

/**
 * An argument that must not reach native code: a heap or closed segment, a negative or oversize
 * length, a range outside a registered region, a misaligned atomic, too many scatter/gather
 * entries, a full batch. Thrown before any native call is made.
 */
public final class InvalidArgumentException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what is wrong with the argument
     */
    public InvalidArgumentException(String message) {
        super(message);
    }
}
