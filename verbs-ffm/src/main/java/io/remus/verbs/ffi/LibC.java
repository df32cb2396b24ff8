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
 * The few C library functions and constants the project needs ({@code <poll.h>},
 * {@code <fcntl.h>}, {@code <unistd.h>}, {@code <sys/socket.h>}, {@code <sys/mman.h>},
 * {@code <sched.h>}, and the memory-policy system calls of {@code <linux/mempolicy.h>}), in the
 * same header class shape as {@link IbVerbs} and {@link RdmaCm}; symbols come from the linker's
 * default lookup.
 *
 * <p>The descriptor calls exist so that every wait on an rdma_cm event channel or a completion
 * channel can have a timeout: make the fd non-blocking with {@link #fcntl}, wait with
 * {@link #poll}, then read the event. The memory and CPU calls place memory and threads on NUMA
 * nodes: {@link #mmap}, {@link #mbind}, {@link #move_pages}, {@link #sched_setaffinity}.
 *
 * <p>Every method checks the sizes of the segments it is given against its count arguments
 * before the downcall and throws {@link IllegalArgumentException} naming the bad value.
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

    // ---------------------------------------------------------------- memory

    /** Declaration of {@code mmap}. */
    public static final NativeFunction MMAP = NativeFunction.libcErrno(
            "void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));

    private static final class mmap$ {
        static final MethodHandle HANDLE = MMAP.link();
    }

    /**
     * {@snippet lang = c :
     * void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
     * }
     *
     * Maps memory, here anonymous private memory ({@link #MAP_PRIVATE} | {@link #MAP_ANONYMOUS},
     * fd -1, offset 0).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param addr      a placement hint, usually {@code MemorySegment.NULL}
     * @param len       the length in bytes, positive
     * @param prot      {@link #PROT_READ} | {@link #PROT_WRITE}, ...
     * @param flags     {@link #MAP_PRIVATE} | {@link #MAP_ANONYMOUS}, ...
     * @param fd        a file descriptor, -1 for anonymous memory
     * @param offset    the offset in the file, non-negative
     * @return the mapping's address (a zero-length segment), or address -1, {@code MAP_FAILED} (see errno)
     * @throws IllegalArgumentException if {@code len} is not positive or {@code offset} is negative
     */
    public static MemorySegment mmap(MemorySegment callState, MemorySegment addr, long len, int prot, int flags,
                                     int fd, long offset) {
        Objects.requireNonNull(addr, "mmap: addr is null");
        if (len <= 0) {
            throw new IllegalArgumentException("mmap: len " + len + " is not positive");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("mmap: offset " + offset + " is negative");
        }
        try {
            return (MemorySegment) mmap$.HANDLE.invokeExact(callState, addr, len, prot, flags, fd, offset);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code munmap}. */
    public static final NativeFunction MUNMAP = NativeFunction.libcErrno(
            "int munmap(void *addr, size_t len)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private static final class munmap$ {
        static final MethodHandle HANDLE = MUNMAP.link();
    }

    /**
     * {@snippet lang = c :
     * int munmap(void *addr, size_t len)
     * }
     *
     * Unmaps memory mapped by {@link #mmap}.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param addr      the start of the mapping, not NULL
     * @param len       the length in bytes, positive
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code addr} is NULL or {@code len} is not positive
     */
    public static int munmap(MemorySegment callState, MemorySegment addr, long len) {
        requireNonNullAddress(addr, "munmap: addr");
        if (len <= 0) {
            throw new IllegalArgumentException("munmap: len " + len + " is not positive");
        }
        try {
            return (int) munmap$.HANDLE.invokeExact(callState, addr, len);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code sysconf}. */
    public static final NativeFunction SYSCONF = NativeFunction.libcErrno(
            "long sysconf(int name)",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT));

    private static final class sysconf$ {
        static final MethodHandle HANDLE = SYSCONF.link();
    }

    /**
     * {@snippet lang = c :
     * long sysconf(int name)
     * }
     *
     * Reads a configuration value, here {@link #_SC_PAGESIZE}.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param name      the value to read, e.g. {@link #_SC_PAGESIZE}
     * @return the value, or -1 (see errno; unchanged errno: no limit)
     */
    public static long sysconf(MemorySegment callState, int name) {
        try {
            return (long) sysconf$.HANDLE.invokeExact(callState, name);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- NUMA memory policy

    /**
     * Declaration of {@code syscall}, linked with six {@code long} variadic arguments: the
     * memory-policy system calls have no glibc wrapper (libnuma's is not needed).
     */
    public static final NativeFunction SYSCALL = NativeFunction.libcErrno(
            "long syscall(long sysno, ...)",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG));

    private static final class syscall$ {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                SYSCALL.library().get().find(SYSCALL.symbol()).orElseThrow(() -> new UnsatisfiedLinkError("syscall")),
                SYSCALL.descriptor(),
                Linker.Option.captureCallState("errno"),
                Linker.Option.firstVariadicArg(1));
    }

    /** The system call numbers of this CPU architecture; empty where they are not known. */
    private record SyscallNumbers(long mbind, long movePages) {
        static final java.util.Optional<SyscallNumbers> CURRENT = of(System.getProperty("os.name", ""),
                System.getProperty("os.arch", ""));

        static java.util.Optional<SyscallNumbers> of(String os, String arch) {
            if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")) {
                return java.util.Optional.empty();
            }
            return switch (arch) {
                case "amd64", "x86_64" -> java.util.Optional.of(new SyscallNumbers(237, 279));
                case "aarch64" -> java.util.Optional.of(new SyscallNumbers(235, 239));
                default -> java.util.Optional.empty();
            };
        }

        static SyscallNumbers current() {
            return CURRENT.orElseThrow(() -> new UnsupportedOperationException(
                    "mbind/move_pages system call numbers are unknown for " + System.getProperty("os.name") + " on "
                            + System.getProperty("os.arch")));
        }
    }

    /**
     * {@return whether this operating system and CPU architecture have {@link #mbind} and
     * {@link #move_pages} (Linux on x86_64 or aarch64)}
     */
    public static boolean hasMemoryPolicyCalls() {
        return SyscallNumbers.CURRENT.isPresent();
    }

    /**
     * {@snippet lang = c :
     * long mbind(void *addr, unsigned long len, int mode, const unsigned long *nodemask,
     *            unsigned long maxnode, unsigned flags)
     * }
     *
     * Sets the memory policy of a range (the {@code mbind} system call, through
     * {@link #SYSCALL}).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param addr      the start of the range, page-aligned, not NULL
     * @param len       the length in bytes, positive
     * @param mode      {@link #MPOL_BIND}, ...
     * @param nodemask  a bit mask of node ids in {@code unsigned long} words
     * @param maxnode   how many bits of {@code nodemask} the kernel reads, plus one (the kernel
     *                  reads {@code maxnode - 1} bits); 1 .. the mask's bits + 1
     * @param flags     {@link #MPOL_MF_STRICT} | {@link #MPOL_MF_MOVE}, ...
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException      if {@code addr} is NULL, {@code len} is not positive or
     *                                       {@code maxnode} does not fit {@code nodemask}
     * @throws UnsupportedOperationException where {@link #hasMemoryPolicyCalls()} is false
     */
    public static long mbind(MemorySegment callState, MemorySegment addr, long len, int mode, MemorySegment nodemask,
                             long maxnode, int flags) {
        requireNonNullAddress(addr, "mbind: addr");
        if (len <= 0) {
            throw new IllegalArgumentException("mbind: len " + len + " is not positive");
        }
        Objects.requireNonNull(nodemask, "mbind: nodemask is null");
        if (maxnode < 1 || maxnode - 1 > nodemask.byteSize() * Byte.SIZE) {
            throw new IllegalArgumentException("mbind: maxnode " + maxnode + " does not fit a nodemask of "
                    + nodemask.byteSize() + " bytes");
        }
        long sysno = SyscallNumbers.current().mbind();
        try {
            return (long) syscall$.HANDLE.invokeExact(callState, sysno, addr.address(), len, (long) mode,
                    nodemask.address(), maxnode, (long) flags);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /**
     * {@snippet lang = c :
     * long move_pages(int pid, unsigned long count, void **pages, const int *nodes,
     *                 int *status, int flags)
     * }
     *
     * Moves pages to nodes, or with {@code nodes} NULL only reports where they are: then
     * {@code status[i]} becomes page {@code i}'s node or a negative errno (the {@code move_pages}
     * system call, through {@link #SYSCALL}).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param pid       the process, 0 for this one
     * @param count     how many pages, non-negative
     * @param pages     {@code count} page addresses
     * @param nodes     {@code count} target nodes, or {@code MemorySegment.NULL} to query
     * @param status    receives {@code count} {@code int}s
     * @param flags     0, or {@code MPOL_MF_MOVE} / {@code MPOL_MF_MOVE_ALL}
     * @return 0, the number of pages not moved, or -1 (see errno)
     * @throws IllegalArgumentException      if {@code pid} or {@code count} is negative, or a
     *                                       segment holds fewer than {@code count} entries
     * @throws UnsupportedOperationException where {@link #hasMemoryPolicyCalls()} is false
     */
    public static long move_pages(MemorySegment callState, int pid, long count, MemorySegment pages,
                                  MemorySegment nodes, MemorySegment status, int flags) {
        if (pid < 0) {
            throw new IllegalArgumentException("move_pages: pid " + pid + " is negative");
        }
        if (count < 0) {
            throw new IllegalArgumentException("move_pages: count " + count + " is negative");
        }
        requireEntries(pages, count, ADDRESS.byteSize(), "move_pages: pages");
        Objects.requireNonNull(nodes, "move_pages: nodes is null (pass MemorySegment.NULL to query)");
        if (!nodes.equals(MemorySegment.NULL)) {
            requireEntries(nodes, count, JAVA_INT.byteSize(), "move_pages: nodes");
        }
        requireEntries(status, count, JAVA_INT.byteSize(), "move_pages: status");
        long sysno = SyscallNumbers.current().movePages();
        try {
            return (long) syscall$.HANDLE.invokeExact(callState, sysno, (long) pid, count, pages.address(),
                    nodes.address(), status.address(), (long) flags);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- CPU affinity

    /** Declaration of {@code sched_setaffinity}. */
    public static final NativeFunction SCHED_SETAFFINITY = NativeFunction.libcErrno(
            "int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS));

    private static final class sched_setaffinity$ {
        static final MethodHandle HANDLE = SCHED_SETAFFINITY.link();
    }

    /**
     * {@snippet lang = c :
     * int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)
     * }
     *
     * Sets the CPUs a thread may run on (pid 0: the calling thread only).
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param pid        the thread id, 0 for the calling thread
     * @param cpusetsize the length of {@code mask} in bytes, positive
     * @param mask       a bit mask of CPU ids, at least {@code cpusetsize} bytes
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code pid} is negative, or {@code cpusetsize} is not
     *                                  positive or exceeds the mask
     */
    public static int sched_setaffinity(MemorySegment callState, int pid, long cpusetsize, MemorySegment mask) {
        if (pid < 0) {
            throw new IllegalArgumentException("sched_setaffinity: pid " + pid + " is negative");
        }
        Objects.requireNonNull(mask, "sched_setaffinity: mask is null");
        if (cpusetsize <= 0 || cpusetsize > mask.byteSize()) {
            throw new IllegalArgumentException("sched_setaffinity: cpusetsize " + cpusetsize
                    + " does not fit a mask of " + mask.byteSize() + " bytes");
        }
        try {
            return (int) sched_setaffinity$.HANDLE.invokeExact(callState, pid, cpusetsize, mask);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code sched_getcpu}. */
    public static final NativeFunction SCHED_GETCPU = NativeFunction.libcErrno(
            "int sched_getcpu(void)",
            FunctionDescriptor.of(JAVA_INT));

    private static final class sched_getcpu$ {
        static final MethodHandle HANDLE = SCHED_GETCPU.link();
    }

    /**
     * {@snippet lang = c :
     * int sched_getcpu(void)
     * }
     *
     * Reads the CPU the calling thread runs on.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @return the CPU id, or -1 (see errno)
     */
    public static int sched_getcpu(MemorySegment callState) {
        try {
            return (int) sched_getcpu$.HANDLE.invokeExact(callState);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    private static void requireNonNullAddress(MemorySegment segment, String what) {
        Objects.requireNonNull(segment, what + " is null");
        if (segment.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(what + " is NULL");
        }
    }

    private static void requireEntries(MemorySegment segment, long count, long entrySize, String what) {
        Objects.requireNonNull(segment, what + " is null");
        if (segment.byteSize() / entrySize < count) {
            throw new IllegalArgumentException(what + " holds " + segment.byteSize() + " bytes, fewer than "
                    + count + " entries of " + entrySize);
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

    /** {@code <sys/mman.h>}: PROT_READ, pages may be read. */
    public static final int PROT_READ = 0x1;
    /** {@code <sys/mman.h>}: PROT_WRITE, pages may be written. */
    public static final int PROT_WRITE = 0x2;
    /** {@code <sys/mman.h>}: MAP_PRIVATE, changes are private to this process. */
    public static final int MAP_PRIVATE = 0x02;
    /** {@code <sys/mman.h>}: MAP_ANONYMOUS, memory backed by no file (zero-filled). */
    public static final int MAP_ANONYMOUS = 0x20;

    /** {@code <unistd.h>}: _SC_PAGESIZE, the page size in bytes, for {@link #sysconf}. */
    public static final int _SC_PAGESIZE = 30;

    /** {@code <linux/mempolicy.h>}: MPOL_BIND, allocate only on the nodes of the mask. */
    public static final int MPOL_BIND = 2;
    /** {@code <linux/mempolicy.h>}: MPOL_MF_STRICT, fail if existing pages do not follow the policy. */
    public static final int MPOL_MF_STRICT = 1;
    /** {@code <linux/mempolicy.h>}: MPOL_MF_MOVE, move this process's existing pages to follow the policy. */
    public static final int MPOL_MF_MOVE = 2;

    /** {@code <sys/socket.h>}: AF_UNSPEC. */
    public static final int AF_UNSPEC = 0;
    /** {@code <sys/socket.h>}: AF_INET (IPv4; {@link sockaddr_in}). */
    public static final int AF_INET = 2;
    /** {@code <sys/socket.h>}: AF_INET6 (IPv6; {@link sockaddr_in6}). */
    public static final int AF_INET6 = 10;
    /** {@code <sys/socket.h>}: AF_IB (native InfiniBand addresses, {@code struct sockaddr_ib}). */
    public static final int AF_IB = 27;
}
