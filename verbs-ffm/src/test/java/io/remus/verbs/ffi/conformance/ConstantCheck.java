package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * Checks a constant's Java value against the C macro or enumerator of the same name. An
 * {@code int} field must hold the C value's 32 bits (C values up to {@code 0xffffffff} are
 * allowed, as Java has no unsigned int).
 *
 * @param constant the Java declaration
 */
public record ConstantCheck(ConstantDeclaration constant) implements ProbeCheck {

    @Override
    public String label() {
        return constant.label();
    }

    @Override
    public List<String> cExpressions() {
        return List.of(constant.name());
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        long c = cValues[0];
        boolean agrees = constant.isInt()
                ? c >= Integer.MIN_VALUE && c <= 0xffff_ffffL && (int) c == (int) constant.value()
                : c == constant.value();
        return agrees ? List.of()
                : List.of(label() + ": java value " + constant.value() + ", C value " + c
                + (constant.isInt() && (int) c == (int) constant.value() ? " (does not fit an int)" : ""));
    }
}
