package io.remus.verbs.ffi.conformance;

/**
 * A C constant (macro or enumerator) the raw layer declares as a {@code public static final}
 * {@code int} or {@code long} field named as in C.
 *
 * @param owner the simple name of the declaring class, e.g. {@code IbVerbs}
 * @param name  the C name, e.g. {@code IBV_ACCESS_LOCAL_WRITE}
 * @param value the Java value (an {@code int} field widened with its sign)
 * @param isInt whether the Java field is an {@code int} (its C value then has 32 bits)
 * @param libc  whether it is declared by a libc class ({@code LibC}, {@code Errno})
 */
public record ConstantDeclaration(String owner, String name, long value, boolean isInt, boolean libc) {

    /** @return how the probe and the reports name it: {@code IbVerbs.IBV_FOO} */
    public String label() {
        return owner + "." + name;
    }
}
