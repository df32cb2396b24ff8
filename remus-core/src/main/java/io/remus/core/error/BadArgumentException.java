package io.remus.core.error;

/**
 * An argument was rejected before anything reached the fabric: a pointer to an unknown node, a
 * misaligned atomic, a range outside every registered segment, a local range outside the
 * registered buffer, a bad size or a configuration value that makes no sense.
 */
public class BadArgumentException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what is wrong with the argument
     */
    public BadArgumentException(String message) {
        super(message);
    }
}
