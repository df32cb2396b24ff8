package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * A problem found in the Java declaration alone (no C needed), e.g. a prototype that does not
 * parse or an {@code $OFFSET} constant that names no member.
 *
 * @param label   what is wrong
 * @param problem why
 */
public record DeclarationProblem(String label, String problem) implements ProbeCheck {

    @Override
    public List<String> cExpressions() {
        return List.of();
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        return List.of(label + ": " + problem);
    }
}
