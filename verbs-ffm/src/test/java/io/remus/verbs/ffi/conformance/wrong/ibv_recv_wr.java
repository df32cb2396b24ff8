package io.remus.verbs.ffi.conformance.wrong;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ibv_recv_wr} with right offsets and sizes but {@code next} (a pointer) as
 * {@code JAVA_LONG}, and the trailing padding left out (size 28; C has 32).
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_recv_wr {
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("wr_id"),
            JAVA_LONG.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge")
    ).withName("ibv_recv_wr");

    private ibv_recv_wr() {
    }

    /** @return the wrong layout */
    public static GroupLayout layout() {
        return LAYOUT;
    }
}
