package io.remus.core.error;

/**
 * A block was handed back to the allocator that is not a live block of the size given: a pointer
 * that was never allocated (the segment's control words, memory beyond the watermark, the inside of
 * a block), a misaligned pointer, a size of another size class than the block's, or a block that is
 * already free ({@link DoubleFreeException}). Nothing was changed: the block, if it is one, stays
 * as it was. {@link #pointer()} is the pointer that was refused.
 */
public class InvalidFreeException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The refused pointer, a {@link io.remus.core.memory.RemotePtr}. */
    private final long pointer;

    /**
     * Creates the exception for a refused pointer.
     *
     * @param pointer the refused pointer (a {@link io.remus.core.memory.RemotePtr})
     * @param message what is wrong with it
     */
    public InvalidFreeException(long pointer, String message) {
        super(message);
        this.pointer = pointer;
    }

    /** {@return the refused pointer, a {@link io.remus.core.memory.RemotePtr}} */
    public long pointer() {
        return pointer;
    }
}
