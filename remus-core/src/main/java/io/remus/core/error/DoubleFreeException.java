package io.remus.core.error;

/**
 * A block was freed that is already free: freed twice by one thread, or by two threads at once
 * (only one of two racing frees succeeds; the other gets this exception). The block stays free,
 * once.
 */
public class DoubleFreeException extends InvalidFreeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a block that is already free.
     *
     * @param pointer the block (a {@link io.remus.core.memory.RemotePtr})
     * @param message which block, and what its header holds
     */
    public DoubleFreeException(long pointer, String message) {
        super(pointer, message);
    }
}
