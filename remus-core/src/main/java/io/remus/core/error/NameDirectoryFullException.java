package io.remus.core.error;

/**
 * A {@link io.remus.core.NameDirectory} has no slot left for a new name: every slot the name's probe
 * sequence visits holds another name. The message names the name, the directory and its capacity; the
 * directory is as it was for every other name.
 */
public class NameDirectoryFullException extends AllocationExhaustedException {
    private static final long serialVersionUID = 1L;

    /** The name that found no slot. */
    private final String name;
    /** The directory's slot count. */
    private final int capacity;

    /**
     * Creates the exception.
     *
     * @param name     the name that found no slot
     * @param capacity the directory's slot count
     * @param message  which directory, in words
     */
    public NameDirectoryFullException(String name, int capacity, String message) {
        super(message);
        this.name = name;
        this.capacity = capacity;
    }

    /** {@return the name that found no slot} */
    public String name() {
        return name;
    }

    /** {@return the directory's capacity: how many names it holds} */
    public int capacity() {
        return capacity;
    }
}
