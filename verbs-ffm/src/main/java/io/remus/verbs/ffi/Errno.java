package io.remus.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * errno: capturing it after a downcall, its symbolic name ({@link #name(int)}) and its text
 * ({@code strerror}).
 *
 * <p>Functions declared with {@link NativeFunction#capturesErrno()} take a call-state segment
 * as their first argument; allocate one with {@link #allocate(Arena)} and read it with
 * {@link #get(MemorySegment)}.
 */
public final class Errno {
    /** ENOSYS: what {@code ibv_get_device_list} reports on a host without an RDMA stack. */
    public static final int ENOSYS = 38;
    /** ENOMEM. */
    public static final int ENOMEM = 12;
    /** EINVAL. */
    public static final int EINVAL = 22;
    /** EAGAIN. */
    public static final int EAGAIN = 11;
    /** ETIMEDOUT. */
    public static final int ETIMEDOUT = 110;

    /** The layout of the call state captured by {@link Linker.Option#captureCallState}. */
    public static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(
            java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle STRERROR = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private Errno() {
    }

    /**
     * @param arena the arena that owns the segment
     * @return a call-state segment for one errno-capturing downcall
     */
    public static MemorySegment allocate(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /**
     * @param callState a segment from {@link #allocate(Arena)} after a downcall
     * @return the errno the downcall left
     */
    public static int get(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /**
     * The symbolic name of the error numbers the project's native calls report (Linux values).
     *
     * @param errno an error number
     * @return its name, e.g. {@code "EINVAL"}, or {@code "errno N"} for a number not in the table
     */
    public static String name(int errno) {
        return switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 3 -> "ESRCH";
            case 4 -> "EINTR";
            case 5 -> "EIO";
            case 9 -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case 13 -> "EACCES";
            case 14 -> "EFAULT";
            case 16 -> "EBUSY";
            case 17 -> "EEXIST";
            case 19 -> "ENODEV";
            case EINVAL -> "EINVAL";
            case 28 -> "ENOSPC";
            case ENOSYS -> "ENOSYS";
            case 95 -> "EOPNOTSUPP";
            case 104 -> "ECONNRESET";
            case ETIMEDOUT -> "ETIMEDOUT";
            case 111 -> "ECONNREFUSED";
            default -> "errno " + errno;
        };
    }

    /**
     * @param errno an error number
     * @return its text, as {@code strerror} gives it
     */
    public static String describe(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
