package io.remus.tools.experiment.numa;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The raw libc calls of the NUMA experiment, through FFM: {@code mmap}, {@code munmap},
 * {@code sched_setaffinity}, {@code sched_getcpu}, {@code sysconf}, and the system calls
 * {@code mbind} and {@code move_pages} (glibc has no wrapper; libnuma's is not needed) through the
 * variadic {@code syscall}. Each returns the raw result; errno is captured. Callers check their
 * arguments first ({@link BoundMemory}, {@link CpuPinning}).
 */
final class LinuxCalls {
    static final int MPOL_BIND = 2;
    static final int MPOL_MF_STRICT = 1;
    static final int MPOL_MF_MOVE = 2;
    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x22;
    private static final int SC_PAGESIZE = 30;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

    private static final MethodHandle MMAP = handle("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), CAPTURE);
    private static final MethodHandle MUNMAP = handle("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle SETAFFINITY = handle("sched_setaffinity",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), CAPTURE);
    private static final MethodHandle GETCPU = handle("sched_getcpu", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle SYSCONF = handle("sysconf", FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
    private static final MethodHandle SYSCALL6 = handle("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
            CAPTURE, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SYSCALL_MOVE = handle("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG),
            CAPTURE, Linker.Option.firstVariadicArg(1));

    private LinuxCalls() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor d, Linker.Option... options) {
        MemorySegment symbol = LIBC.find(name).orElseThrow(
                () -> new UnsupportedOperationException("libc has no " + name + " here"));
        return LINKER.downcallHandle(symbol, d, options);
    }

    /** The system call numbers of this CPU architecture. */
    private record Numbers(long mbind, long movePages) {
        static Numbers current() {
            String arch = System.getProperty("os.arch");
            return switch (arch) {
                case "amd64", "x86_64" -> new Numbers(237, 279);
                case "aarch64" -> new Numbers(235, 239);
                default -> throw new UnsupportedOperationException("mbind/move_pages numbers unknown for " + arch);
            };
        }
    }

    /** @return whether this OS and CPU architecture have the calls */
    static boolean supported() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return false;
        }
        try {
            Numbers.current();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    static long pageSize() {
        try {
            return (long) SYSCONF.invokeExact(SC_PAGESIZE);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static MemorySegment mmap(long length) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(STATE);
            MemorySegment p = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, length, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
            if (p.address() == -1L) {
                throw new NumaCallException("mmap", errno(state), length + " bytes");
            }
            return p.reinterpret(length);
        } catch (NumaCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void munmap(MemorySegment region) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(STATE);
            int rc = (int) MUNMAP.invokeExact(state, region, region.byteSize());
            if (rc != 0) {
                throw new NumaCallException("munmap", errno(state), region.byteSize() + " bytes");
            }
        } catch (NumaCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void mbind(MemorySegment region, int mode, MemorySegment nodeMask, long maxNode, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(STATE);
            long rc = (long) SYSCALL6.invokeExact(state, Numbers.current().mbind(), region, region.byteSize(),
                    (long) mode, nodeMask, maxNode, (long) flags);
            if (rc != 0) {
                throw new NumaCallException("mbind", errno(state), region.byteSize() + " bytes, mode " + mode);
            }
        } catch (NumaCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Queries (does not move): {@code status[i]} becomes page i's node, or a negative errno. */
    static void movePagesQuery(long count, MemorySegment pages, MemorySegment status) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(STATE);
            long rc = (long) SYSCALL_MOVE.invokeExact(state, Numbers.current().movePages(), 0L, count, pages,
                    MemorySegment.NULL, status, 0L);
            if (rc < 0) {
                throw new NumaCallException("move_pages", errno(state), count + " pages (query)");
            }
        } catch (NumaCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void setAffinity(MemorySegment mask) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(STATE);
            int rc = (int) SETAFFINITY.invokeExact(state, 0, mask.byteSize(), mask);
            if (rc != 0) {
                throw new NumaCallException("sched_setaffinity", errno(state), mask.byteSize() + "-byte mask");
            }
        } catch (NumaCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static int currentCpu() {
        try {
            return (int) GETCPU.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
