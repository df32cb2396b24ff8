package io.remus.verbs.ffi.conformance.right;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code union ibv_gid}: a union with an array and a named nested struct. */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_gid {
    private static final GroupLayout LAYOUT = MemoryLayout.unionLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("raw"),
            MemoryLayout.structLayout(
                    JAVA_LONG.withName("subnet_prefix"),
                    JAVA_LONG.withName("interface_id")).withName("global")
    ).withName("ibv_gid");

    /** Offset of {@code global.interface_id}. */
    public static final long global_interface_id$OFFSET = 8;

    private ibv_gid() {
    }

    /** @return the layout of {@code union ibv_gid} */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
