package io.remus.core.error;

/**
 * A shared word of remote memory holds a value that the protocol owning it never writes: something
 * else (a stray write, a use of freed memory, a write past a block's end) changed it. The operation
 * that found it changed nothing it could not prove safe and handed out nothing; the message names
 * the word and the value.
 */
public class CorruptedMemoryException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The corrupted word, a {@link io.remus.core.memory.RemotePtr}. */
    private final long word;
    /** The value found in it. */
    private final long value;

    /**
     * Creates the exception for a word and the value found in it.
     *
     * @param word    the word (a {@link io.remus.core.memory.RemotePtr})
     * @param value   what it holds
     * @param message what was expected
     */
    public CorruptedMemoryException(long word, long value, String message) {
        super(message);
        this.word = word;
        this.value = value;
    }

    /** {@return the corrupted word, a {@link io.remus.core.memory.RemotePtr}} */
    public long word() {
        return word;
    }

    /** {@return the value found in it} */
    public long value() {
        return value;
    }
}
