package io.remus.core.error;

/**
 * An {@link io.remus.core.OpHandle} was awaited or polled that is no longer current: it was already awaited (its
 * slot may carry another operation by now), its wait timed out, or another compute thread issued
 * it. Nothing was awaited and no slot changed.
 */
public class StaleHandleException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /** The refused handle. */
    private final long handle;

    /**
     * Creates the exception for a refused handle.
     *
     * @param handle  the refused handle
     * @param message why it is stale
     */
    public StaleHandleException(long handle, String message) {
        super(message);
        this.handle = handle;
    }

    /** {@return the refused handle} */
    public long handle() {
        return handle;
    }
}
