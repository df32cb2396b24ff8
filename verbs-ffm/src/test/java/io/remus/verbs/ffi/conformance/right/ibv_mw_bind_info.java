package io.remus.verbs.ffi.conformance.right;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code struct ibv_mw_bind_info}: trailing padding. */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_mw_bind_info {
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("mr"),
            JAVA_LONG.withName("addr"),
            JAVA_LONG.withName("length"),
            JAVA_INT.withName("mw_access_flags"),
            MemoryLayout.paddingLayout(4)
    ).withName("ibv_mw_bind_info");

    private ibv_mw_bind_info() {
    }

    /** @return the layout of {@code struct ibv_mw_bind_info} */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
