package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * Checks {@code sizeof} and {@code _Alignof} of a struct or union against its Java layout's
 * byte size and alignment (the size catches wrong padding, which is not checked member by
 * member).
 *
 * @param struct the Java declaration
 */
public record StructSizeCheck(StructDeclaration struct) implements ProbeCheck {

    @Override
    public String label() {
        return struct.tag();
    }

    @Override
    public List<String> cExpressions() {
        return List.of("sizeof(" + struct.cType() + ")", "_Alignof(" + struct.cType() + ")");
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        long size = struct.layout().byteSize();
        long alignment = struct.layout().byteAlignment();
        if (size == cValues[0] && alignment == cValues[1]) {
            return List.of();
        }
        return List.of(label() + ": java size " + size + " alignment " + alignment + ", C size " + cValues[0]
                + " alignment " + cValues[1]);
    }
}
