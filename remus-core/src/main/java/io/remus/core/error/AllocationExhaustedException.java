package io.remus.core.error;

/** A memory node has no room left for an allocation of the requested size class. */
public class AllocationExhaustedException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which node and size
     */
    public AllocationExhaustedException(String message) {
        super(message);
    }
}
