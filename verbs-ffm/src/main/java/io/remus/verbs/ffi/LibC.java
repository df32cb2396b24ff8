package io.remus.verbs.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few C library functions and constants the RDMA layer needs ({@code <poll.h>},
 * {@code <fcntl.h>}, {@code <unistd.h>}, {@code <sys/socket.h>}), in the same header class
 * shape as {@link IbVerbs} and {@link RdmaCm}; symbols come from the linker's default lookup.
 *
 * <p>They exist so that every wait on an rdma_cm event channel or a completion channel can
 * have a timeout: make the fd non-blocking with {@link #fcntl}, wait with {@link #poll}, then
 * read the event.
 */
public final class LibC {
    private LibC() {
    }

    // ---------------------------------------------------------------- waiting on file descriptors

    /** Declaration of {@code poll}. */
    public static final NativeFunction POLL = NativeFunction.libcErrno(
            "int poll(struct pollfd *fds, nfds_t nfds, int timeout)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    private static final class poll$ {
        static final MethodHandle HANDLE = POLL.link();
    }

    /**
     * {@snippet lang = c :
     * int poll(struct pollfd *fds, nfds_t nfds, int timeout)
     * }
     *
     * Waits until one of the descriptors is ready or the timeout passes.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param fds       an array of {@link pollfd}
     * @param nfds      how many entries of {@code fds} to watch
     * @param timeout   milliseconds to wait at most (0: do not wait; negative: forever, which
     *                  the project never uses)
     * @return how many entries have a non-zero {@code revents}, 0 on timeout, or -1 (see errno;
     *         EINTR when a signal interrupted the wait)
     * @throws IllegalArgumentException if {@code nfds} is negative or {@code fds} holds fewer than {@code nfds} entries
     */
    public static int poll(MemorySegment callState, MemorySegment fds, long nfds, int timeout) {
        Objects.requireNonNull(fds, "poll: fds is null");
        if (nfds < 0 || nfds > fds.byteSize() / pollfd.sizeof()) {
            throw new IllegalArgumentException("poll: nfds " + nfds + " does not fit fds of " + fds.byteSize() + " bytes");
        }
        try {
            return (int) poll$.HANDLE.invokeExact(callState, fds, nfds, timeout);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code fcntl}. */
    public static final NativeFunction FCNTL = NativeFunction.libcErrno(
            "int fcntl(int fd, int cmd, ...)",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));

    private static final class fcntl$ {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                FCNTL.library().get().find(FCNTL.symbol()).orElseThrow(() -> new UnsatisfiedLinkError("fcntl")),
                FCNTL.descriptor(),
                Linker.Option.captureCallState("errno"),
                Linker.Option.firstVariadicArg(2));
    }

    /**
     * {@snippet lang = c :
     * int fcntl(int fd, int cmd, ...)
     * }
     *
     * Controls a file descriptor, here to set {@link #O_NONBLOCK} on an event channel's fd. The
     * variadic C function is linked with {@code Linker.Option.firstVariadicArg(2)} and one
     * {@code int} argument.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param fd        a file descriptor
     * @param cmd       {@link #F_GETFL}, {@link #F_SETFL}, ...
     * @param arg       the one {@code int} variadic argument ({@code F_SETFL}'s flags; ignored by {@code F_GETFL})
     * @return the flags for {@code F_GETFL}, 0 for {@code F_SETFL}, or -1 (see errno)
     */
    public static int fcntl(MemorySegment callState, int fd, int cmd, int arg) {
        try {
            return (int) fcntl$.HANDLE.invokeExact(callState, fd, cmd, arg);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- descriptors

    /** Declaration of {@code pipe}. */
    public static final NativeFunction PIPE = NativeFunction.libcErrno(
            "int pipe(int pipedes[2])",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class pipe$ {
        static final MethodHandle HANDLE = PIPE.link();
    }

    /**
     * {@snippet lang = c :
     * int pipe(int pipedes[2])
     * }
     *
     * Creates a pipe (a descriptor pair that can wake up a {@link #poll}).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param pipedes   two {@code int}s; receive the read end and the write end
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code pipedes} is smaller than two {@code int}s
     */
    public static int pipe(MemorySegment callState, MemorySegment pipedes) {
        Objects.requireNonNull(pipedes, "pipe: pipedes is null");
        if (pipedes.byteSize() < 2 * JAVA_INT.byteSize()) {
            throw new IllegalArgumentException("pipe: pipedes holds " + pipedes.byteSize() + " bytes, needs 8");
        }
        try {
            return (int) pipe$.HANDLE.invokeExact(callState, pipedes);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code close}. */
    public static final NativeFunction CLOSE = NativeFunction.libcErrno(
            "int close(int fd)",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private static final class close$ {
        static final MethodHandle HANDLE = CLOSE.link();
    }

    /**
     * {@snippet lang = c :
     * int close(int fd)
     * }
     *
     * Closes a file descriptor.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param fd        a file descriptor this program owns
     * @return 0, or -1 (see errno)
     */
    public static int close(MemorySegment callState, int fd) {
        try {
            return (int) close$.HANDLE.invokeExact(callState, fd);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- constants

    /** {@code <poll.h>}: POLLIN, there is data to read. */
    public static final int POLLIN = 0x001;
    /** {@code <poll.h>}: POLLPRI, there is urgent data to read. */
    public static final int POLLPRI = 0x002;
    /** {@code <poll.h>}: POLLOUT, writing will not block. */
    public static final int POLLOUT = 0x004;
    /** {@code <poll.h>}: POLLERR, error condition (always reported). */
    public static final int POLLERR = 0x008;
    /** {@code <poll.h>}: POLLHUP, hung up (always reported). */
    public static final int POLLHUP = 0x010;
    /** {@code <poll.h>}: POLLNVAL, the fd is not open (always reported). */
    public static final int POLLNVAL = 0x020;

    /** {@code <fcntl.h>}: F_GETFL, get the file status flags. */
    public static final int F_GETFL = 3;
    /** {@code <fcntl.h>}: F_SETFL, set the file status flags. */
    public static final int F_SETFL = 4;
    /** {@code <fcntl.h>}: O_NONBLOCK. */
    public static final int O_NONBLOCK = 04000;

    /** {@code <sys/socket.h>}: AF_UNSPEC. */
    public static final int AF_UNSPEC = 0;
    /** {@code <sys/socket.h>}: AF_INET (IPv4; {@link sockaddr_in}). */
    public static final int AF_INET = 2;
    /** {@code <sys/socket.h>}: AF_INET6 (IPv6; {@link sockaddr_in6}). */
    public static final int AF_INET6 = 10;
    /** {@code <sys/socket.h>}: AF_IB (native InfiniBand addresses, {@code struct sockaddr_ib}). */
    public static final int AF_IB = 27;
}
