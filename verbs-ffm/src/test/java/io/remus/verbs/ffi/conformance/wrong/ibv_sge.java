package io.remus.verbs.ffi.conformance.wrong;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code struct ibv_sge} with {@code lkey} and {@code length} swapped (lkey at 8; C has 12). */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_sge {
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("lkey"),
            JAVA_INT.withName("length")
    ).withName("ibv_sge");

    /** Wrong: C has 12. */
    public static final long lkey$OFFSET = 8;
    /** Names no member. */
    public static final long lkye$OFFSET = 12;

    private ibv_sge() {
    }

    /** @return the wrong layout */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
