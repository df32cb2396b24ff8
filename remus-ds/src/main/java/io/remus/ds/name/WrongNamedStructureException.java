package io.remus.ds.name;

import io.remus.core.error.BadNameException;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.util.Objects;

/**
 * A name is bound to something other than the kind of structure the caller asked for: another kind of structure,
 * the same kind in a layout version this code does not read, or no structure at all (a pointer published raw).
 * The message names the pointer, the kind expected, the name and the kind found ({@link #found()}); the cause is
 * the attach's own {@link WrongStructureException}. Nothing was created, attached or
 * changed.
 */
public class WrongNamedStructureException extends WrongStructureException {
    private static final long serialVersionUID = 1L;

    /** The name looked up. */
    private final String name;

    /**
     * Creates the exception from the attach's refusal.
     *
     * @param name     the name looked up
     * @param ptr      the pointer bound to it
     * @param expected the kind the caller expected
     * @param cause    the refusal of the pointer by the structure's {@code attach}
     */
    public WrongNamedStructureException(String name, long ptr, StructureKind expected, WrongStructureException cause) {
        super(ptr, expected, Objects.requireNonNull(cause, "cause").found(), "the name "
                + BadNameException.quote(Objects.requireNonNull(name, "name")) + " is bound to "
                + (cause.found() == null ? "no structure"
                : cause.found() == expected ? "a " + expected.typeName() + " this code cannot read (" + cause.getMessage() + ")"
                : "a " + cause.found().typeName()));
        this.name = name;
        initCause(cause);
    }

    /** {@return the name looked up} */
    public String name() {
        return name;
    }
}
