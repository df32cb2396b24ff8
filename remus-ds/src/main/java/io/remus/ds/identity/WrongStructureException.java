package io.remus.ds.identity;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;

/**
 * A pointer handed to a structure's {@code attach} names something else: another kind of structure, the
 * same kind in a layout version this code does not read, or no structure at all. The message names the
 * pointer, the kind expected and what was found. Nothing was changed.
 */
public class WrongStructureException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /** The kind the caller expected. */
    private final StructureKind expected;
    /** The kind found there, or null when no structure is there. */
    private final StructureKind found;

    /**
     * Creates the exception.
     *
     * @param ptr      the pointer handed to {@code attach}
     * @param expected the kind the caller expected
     * @param found    the kind found there, or null when no structure is there
     * @param what     what was found, in words
     */
    public WrongStructureException(long ptr, StructureKind expected, StructureKind found, String what) {
        super(RemotePtr.toString(ptr) + " is not a " + expected.typeName() + ": " + what);
        this.expected = expected;
        this.found = found;
    }

    /** {@return the kind the caller expected} */
    public StructureKind expected() {
        return expected;
    }

    /** {@return the kind found at the pointer, or null when no structure is there} */
    public StructureKind found() {
        return found;
    }
}
