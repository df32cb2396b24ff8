package io.remus.core.error;

/**
 * An operation was called on a {@link io.remus.core.ComputeThread} after
 * {@link io.remus.core.ComputeThread#close()}: it was refused before it touched memory or the fabric.
 */
public class ClosedComputeThreadException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which thread and what was attempted
     */
    public ClosedComputeThreadException(String message) {
        super(message);
    }
}
