package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct rdma_event_channel {
 *     int fd;
 * }
 * }
 *
 * <p>{@code fd} can be switched to non-blocking mode ({@link LibC#fcntl}) and waited on with
 * {@link LibC#poll} before {@link RdmaCm#rdma_get_cm_event}.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class rdma_event_channel {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("fd")
    ).withName("rdma_event_channel");

    private rdma_event_channel() {
    }

    /** {@return the layout of {@code struct rdma_event_channel}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct rdma_event_channel)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code fd}. */
    public static final long fd$OFFSET = 0;

    /** @param s a {@code struct rdma_event_channel} @return {@code s->fd} */
    public static int fd(MemorySegment s) {
        return s.get(JAVA_INT, fd$OFFSET);
    }

    /** @param s a {@code struct rdma_event_channel} @param v the value for {@code s->fd} */
    public static void fd(MemorySegment s, int v) {
        s.set(JAVA_INT, fd$OFFSET, v);
    }
}
