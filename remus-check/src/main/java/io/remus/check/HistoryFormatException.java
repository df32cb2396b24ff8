package io.remus.check;

/**
 * A history that cannot be used: a malformed operation, a history file that does not parse, or
 * files whose clocks cannot be compared. The message names the bad value (and the file and line).
 */
public final class HistoryFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what is wrong, naming the bad value
     */
    public HistoryFormatException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what is wrong, naming the bad value
     * @param cause   the underlying failure
     */
    public HistoryFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
