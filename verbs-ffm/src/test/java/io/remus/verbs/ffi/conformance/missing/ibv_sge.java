package io.remus.verbs.ffi.conformance.missing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code struct ibv_sge} with a member C does not have, and a wrong offset constant besides. */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_sge {
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("addr"),
            JAVA_INT.withName("length"),
            JAVA_INT.withName("nope")
    ).withName("ibv_sge");

    /** Wrong (C has 8): must be reported although the probe first fails to compile. */
    public static final long length$OFFSET = 4;

    private ibv_sge() {
    }

    /** @return the layout with a member C lacks */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
