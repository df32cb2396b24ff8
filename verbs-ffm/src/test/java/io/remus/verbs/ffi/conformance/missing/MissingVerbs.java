package io.remus.verbs.ffi.conformance.missing;

import io.remus.verbs.ffi.NativeFunction;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** A function and a constant that no header declares. */
public final class MissingVerbs {
    /** No such function. */
    public static final NativeFunction IBV_NO_SUCH_FUNCTION = new NativeFunction("ibv_no_such_function",
            "int ibv_no_such_function(int x)", FunctionDescriptor.of(JAVA_INT, JAVA_INT), false, false, null);
    /** No such constant. */
    public static final int IBV_NO_SUCH_CONSTANT = 1;

    private MissingVerbs() {
    }
}
