package io.remus.verbs.ffi.conformance.right;

import io.remus.verbs.ffi.NativeFunction;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Correct libc declarations: a variadic function, a typedef parameter, upper-case constants. */
public final class LibC {
    /** Variadic: two fixed parameters, the descriptor carries the one variadic {@code int}. */
    public static final NativeFunction FCNTL = new NativeFunction("fcntl", "int fcntl(int fd, int cmd, ...)",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), true, false, null);
    /** {@code nfds_t} is resolved by gcc. */
    public static final NativeFunction POLL = new NativeFunction("poll",
            "int poll(struct pollfd *fds, nfds_t nfds, int timeout)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), true, false, null);
    /** {@code fcntl} command. */
    public static final int F_GETFL = 3;
    /** {@code open} flag. */
    public static final int O_NONBLOCK = 04000;
    /** {@code poll} event. */
    public static final int POLLIN = 1;
    /** errno value. */
    public static final int EAGAIN = 11;

    private LibC() {
    }
}
