package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * Checks a struct class's {@code NAME$OFFSET} constant (which its accessors use) against
 * {@code offsetof} of the member it names.
 *
 * @param struct   the struct or union
 * @param constant the constant's name without {@code $OFFSET}
 * @param path     the C member designator it names
 * @param value    the constant's value
 */
public record OffsetConstantCheck(StructDeclaration struct, String constant, String path, long value)
        implements ProbeCheck {

    @Override
    public String label() {
        return struct.tag() + "." + constant + "$OFFSET";
    }

    @Override
    public List<String> cExpressions() {
        return List.of("offsetof(" + struct.cType() + ", " + path + ")");
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        return cValues[0] == value ? List.of()
                : List.of(label() + ": java " + value + ", C offsetof(" + struct.cType() + ", " + path + ") "
                + cValues[0]);
    }
}
