package io.remus.verbs.ffi.conformance;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks one named member of a struct or union: {@code offsetof} and {@code sizeof} against the
 * Java layout, and for a value member that its Java layout fits the C type (a pointer is
 * {@code ADDRESS}, a {@code uint32_t} is {@code JAVA_INT}, ...).
 *
 * @param struct     the enclosing struct or union
 * @param path       the C member designator, e.g. {@code wr.rdma.rkey}
 * @param javaOffset the member's offset in the Java layout
 * @param member     the member's Java layout
 */
public record MemberCheck(StructDeclaration struct, String path, long javaOffset, MemoryLayout member)
        implements ProbeCheck {

    @Override
    public String label() {
        return struct.tag() + "." + path;
    }

    @Override
    public List<String> cExpressions() {
        String access = "((" + struct.cType() + " *)0)->" + path;
        List<String> expressions = new ArrayList<>(List.of(
                "offsetof(" + struct.cType() + ", " + path + ")", "sizeof(" + access + ")"));
        if (member instanceof ValueLayout) {
            expressions.add(CTypeKind.classifyExpression(access));
        }
        return expressions;
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        List<String> mismatches = new ArrayList<>();
        if (cValues[0] != javaOffset || cValues[1] != member.byteSize()) {
            mismatches.add(label() + ": java offset " + javaOffset + " size " + member.byteSize()
                    + ", C offset " + cValues[0] + " size " + cValues[1]);
        }
        if (cValues.length > 2) {
            CTypeKind.mismatch(cValues[2], cValues[1], member).ifPresent(why -> mismatches.add(label() + ": " + why));
        }
        return mismatches;
    }
}
