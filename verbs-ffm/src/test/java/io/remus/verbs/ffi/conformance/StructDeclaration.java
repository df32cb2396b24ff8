package io.remus.verbs.ffi.conformance;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.UnionLayout;
import java.util.Map;

/**
 * A C struct or union the raw layer declares: a class named as the C tag with a static
 * {@code layout()}.
 *
 * @param tag     the C tag ({@code ibv_sge} for {@code struct ibv_sge})
 * @param layout  the Java layout of the whole struct or union
 * @param offsets the class's {@code NAME$OFFSET} constants, by NAME
 */
public record StructDeclaration(String tag, GroupLayout layout, Map<String, Long> offsets) {

    /** @return whether the C type is a union (its layout is a {@link UnionLayout}) */
    public boolean isUnion() {
        return layout instanceof UnionLayout;
    }

    /** @return the C type name, e.g. {@code struct ibv_sge} or {@code union ibv_gid} */
    public String cType() {
        return (isUnion() ? "union " : "struct ") + tag;
    }
}
