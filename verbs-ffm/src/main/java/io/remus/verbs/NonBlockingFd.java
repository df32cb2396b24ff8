package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.LibC;
import io.remus.verbs.ffi.pollfd;

import java.lang.foreign.MemorySegment;

/**
 * How this package waits on a kernel event fd (a completion channel's, a connection manager
 * channel's, a device's async events) with a bound: the fd is made non-blocking once, reads that
 * find nothing return {@code EAGAIN}, and between them {@code poll} waits for the fd to become
 * readable for at most the time left.
 */
final class NonBlockingFd {
    private static final int EINTR = 4;

    private NonBlockingFd() {
    }

    /**
     * Sets {@code O_NONBLOCK} on {@code fd}.
     *
     * @param callState from {@link Errno#allocate}
     * @param fd        the fd
     * @param what      the fd's name in the message
     * @throws VerbsException if {@code fcntl} fails
     */
    static void makeNonBlocking(MemorySegment callState, int fd, String what) {
        int flags = LibC.fcntl(callState, fd, LibC.F_GETFL, 0);
        if (flags < 0 || LibC.fcntl(callState, fd, LibC.F_SETFL, flags | LibC.O_NONBLOCK) < 0) {
            throw new VerbsException("fcntl", Errno.get(callState), "making " + what + " non-blocking");
        }
    }

    /**
     * Waits until {@code fd} is readable, a signal interrupts the wait, or {@code leftNanos} pass
     * (at least a millisecond).
     *
     * @param callState from {@link Errno#allocate}
     * @param fds       a {@link pollfd} to fill
     * @param fd        the fd
     * @param leftNanos how long at most
     * @param what      what is waited for, in the message
     * @throws VerbsException if {@code poll} fails other than by {@code EINTR}
     */
    static void awaitReadable(MemorySegment callState, MemorySegment fds, int fd, long leftNanos, String what) {
        pollfd.fd(fds, fd);
        pollfd.events(fds, (short) LibC.POLLIN);
        pollfd.revents(fds, (short) 0);
        int ready = LibC.poll(callState, fds, 1, (int) Math.max(1, Math.min(Integer.MAX_VALUE, leftNanos / 1_000_000)));
        if (ready < 0 && Errno.get(callState) != EINTR) {
            throw new VerbsException("poll", Errno.get(callState), what);
        }
    }
}
