package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct pollfd {
 *     int   fd;
 *     short events;
 *     short revents;
 * }
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class pollfd {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"),
            JAVA_SHORT.withName("events"),
            JAVA_SHORT.withName("revents")
    ).withName("pollfd");

    private pollfd() {
    }

    /** {@return the layout of {@code struct pollfd}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct pollfd)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code fd}. */
    public static final long fd$OFFSET = 0;
    /** Offset of {@code events}. */
    public static final long events$OFFSET = 4;
    /** Offset of {@code revents}. */
    public static final long revents$OFFSET = 6;

    /** @param s a {@code struct pollfd} @return {@code s->fd} */
    public static int fd(MemorySegment s) {
        return s.get(JAVA_INT, fd$OFFSET);
    }

    /** @param s a {@code struct pollfd} @param v the value for {@code s->fd} */
    public static void fd(MemorySegment s, int v) {
        s.set(JAVA_INT, fd$OFFSET, v);
    }

    /** @param s a {@code struct pollfd} @return {@code s->events} */
    public static short events(MemorySegment s) {
        return s.get(JAVA_SHORT, events$OFFSET);
    }

    /** @param s a {@code struct pollfd} @param v the value for {@code s->events} */
    public static void events(MemorySegment s, short v) {
        s.set(JAVA_SHORT, events$OFFSET, v);
    }

    /** @param s a {@code struct pollfd} @return {@code s->revents} */
    public static short revents(MemorySegment s) {
        return s.get(JAVA_SHORT, revents$OFFSET);
    }

    /** @param s a {@code struct pollfd} @param v the value for {@code s->revents} */
    public static void revents(MemorySegment s, short v) {
        s.set(JAVA_SHORT, revents$OFFSET, v);
    }
}
