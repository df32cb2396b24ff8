package io.remus.core.error;

/**
 * A word of a memory node's control block holds a value no allocator or barrier ever writes, e.g. a
 * watermark below its segment's heap, far past its end, misaligned or moved backwards. Nothing was allocated
 * from it.
 */
public class CorruptedControlBlockException extends CorruptedMemoryException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a control word and the value found in it.
     *
     * @param word    the control word (a {@link io.remus.core.memory.RemotePtr})
     * @param value   what it holds
     * @param message what it should hold
     */
    public CorruptedControlBlockException(long word, long value, String message) {
        super(word, value, message);
    }
}
