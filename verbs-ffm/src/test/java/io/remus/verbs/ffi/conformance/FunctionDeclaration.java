package io.remus.verbs.ffi.conformance;

import io.remus.verbs.ffi.NativeFunction;

/**
 * A C function the raw layer declares: a {@code public static final NativeFunction} field.
 *
 * @param field    where it is declared, e.g. {@code IbVerbs.IBV_GET_DEVICE_LIST}
 * @param function the declaration
 * @param libc     whether it is declared by a libc class ({@code LibC}, {@code Errno})
 */
public record FunctionDeclaration(String field, NativeFunction function, boolean libc) {

    /** @return the parsed C prototype */
    public CPrototype prototype() {
        return CPrototype.parse(function.cPrototype());
    }

    /** @return how the probe and the reports name it: {@code IbVerbs.IBV_FOO (ibv_foo)} */
    public String label() {
        return field + " (" + function.name() + ")";
    }
}
