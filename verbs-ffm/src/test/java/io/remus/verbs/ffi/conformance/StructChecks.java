package io.remus.verbs.ffi.conformance;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks of one struct or union: its size and alignment, every named member (nested
 * members by their C designator, e.g. {@code wr.rdma.rkey}; a member named {@code $anon...}
 * is an anonymous C struct or union, left out of the designator but its offset counted), and
 * every {@code NAME$OFFSET} constant. Unnamed members are padding: the size covers them.
 *
 * <p>An {@code $OFFSET} constant names a member by its designator with {@code .} written as
 * {@code _} or {@code $}, or by the member's own name when that is unique in the struct.
 */
public final class StructChecks {
    private StructChecks() {
    }

    /**
     * @param struct a struct or union declaration
     * @return its checks
     */
    public static List<ProbeCheck> of(StructDeclaration struct) {
        Map<String, MemberCheck> members = new LinkedHashMap<>();
        walk(struct, struct.layout(), "", 0, members);
        List<ProbeCheck> checks = new ArrayList<>();
        checks.add(new StructSizeCheck(struct));
        checks.addAll(members.values());
        struct.offsets().forEach((constant, value) -> {
            List<String> named = members.keySet().stream().filter(path -> names(constant, path, members)).toList();
            if (named.size() == 1) {
                checks.add(new OffsetConstantCheck(struct, constant, named.getFirst(), value));
            } else {
                checks.add(new DeclarationProblem(struct.tag() + "." + constant + "$OFFSET",
                        named.isEmpty() ? "names no member of the layout" : "is ambiguous among " + named));
            }
        });
        return checks;
    }

    private static void walk(StructDeclaration struct, GroupLayout group, String prefix, long base,
                             Map<String, MemberCheck> members) {
        long offset = base;
        for (MemoryLayout member : group.memberLayouts()) {
            String name = member.name().orElse("");
            if (name.startsWith("$anon")) {
                if (member instanceof GroupLayout nested) {
                    walk(struct, nested, prefix, offset, members);
                }
            } else if (!name.isEmpty()) {
                String path = prefix.isEmpty() ? name : prefix + "." + name;
                members.put(path, new MemberCheck(struct, path, offset, member));
                if (member instanceof GroupLayout nested) {
                    walk(struct, nested, path, offset, members);
                }
            }
            if (group instanceof StructLayout) {
                offset += member.byteSize();
            }
        }
    }

    private static boolean names(String constant, String path, Map<String, MemberCheck> members) {
        if (constant.equals(path.replace('.', '_')) || constant.equals(path.replace('.', '$'))) {
            return true;
        }
        String leaf = path.substring(path.lastIndexOf('.') + 1);
        return constant.equals(leaf)
                && members.keySet().stream().filter(p -> p.substring(p.lastIndexOf('.') + 1).equals(leaf)).count() == 1;
    }
}
