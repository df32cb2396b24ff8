package io.remus.verbs.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Functions and constants of {@code <infiniband/verbs.h>} (libibverbs), in jextract's header
 * class shape: one static method per C function, named as in C.
 *
 * <p>Each function is declared by a {@link NativeFunction} constant (upper-case C name) and
 * linked lazily by a holder class on first call.
 */
public final class IbVerbs {
    private IbVerbs() {
    }

    // ---------------------------------------------------------------- device list

    /** Declaration of {@code ibv_get_device_list}. */
    public static final NativeFunction IBV_GET_DEVICE_LIST = NativeFunction.ibverbsErrno(
            "struct ibv_device **ibv_get_device_list(int *num_devices)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_get_device_list$ {
        static final MethodHandle HANDLE = IBV_GET_DEVICE_LIST.downcall();
    }

    /**
     * {@snippet lang = c : struct ibv_device **ibv_get_device_list(int *num_devices) }
     *
     * @param callState   from {@link Errno#allocate}; holds errno after the call
     * @param num_devices an {@code int} out-parameter, or NULL
     * @return a NULL-terminated array of device pointers, or NULL (see errno)
     */
    public static MemorySegment ibv_get_device_list(MemorySegment callState, MemorySegment num_devices) {
        try {
            return (MemorySegment) ibv_get_device_list$.HANDLE.invokeExact(callState, num_devices);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_free_device_list}. */
    public static final NativeFunction IBV_FREE_DEVICE_LIST = NativeFunction.ibverbs(
            "void ibv_free_device_list(struct ibv_device **list)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class ibv_free_device_list$ {
        static final MethodHandle HANDLE = IBV_FREE_DEVICE_LIST.downcall();
    }

    /**
     * {@snippet lang = c : void ibv_free_device_list(struct ibv_device **list) }
     *
     * @param list the array from {@link #ibv_get_device_list}
     */
    public static void ibv_free_device_list(MemorySegment list) {
        try {
            ibv_free_device_list$.HANDLE.invokeExact(list);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_get_device_name}. */
    public static final NativeFunction IBV_GET_DEVICE_NAME = NativeFunction.ibverbs(
            "const char *ibv_get_device_name(struct ibv_device *device)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_get_device_name$ {
        static final MethodHandle HANDLE = IBV_GET_DEVICE_NAME.downcall();
    }

    /**
     * {@snippet lang = c : const char *ibv_get_device_name(struct ibv_device *device) }
     *
     * @param device a device from the list
     * @return its name (a NUL-terminated string owned by libibverbs)
     */
    public static MemorySegment ibv_get_device_name(MemorySegment device) {
        try {
            return (MemorySegment) ibv_get_device_name$.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- constants

    /** {@code enum ibv_access_flags}: IBV_ACCESS_LOCAL_WRITE. */
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_WRITE. */
    public static final int IBV_ACCESS_REMOTE_WRITE = 1 << 1;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_READ. */
    public static final int IBV_ACCESS_REMOTE_READ = 1 << 2;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_ATOMIC. */
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 1 << 3;
}
