package io.remus.verbs.testing;

import io.remus.verbs.VerbsException;
import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The names of the RDMA devices libibverbs sees, read through the raw layer
 * ({@code ibv_get_device_list}, {@code ibv_get_device_name}).
 */
public final class DeviceNames {
    private static final long IBV_SYSFS_NAME_MAX = 64;

    private DeviceNames() {
    }

    /**
     * Lists the devices. A host without an RDMA stack (errno ENOSYS) has none.
     *
     * @return the device names, in libibverbs' order; empty where there are none
     * @throws VerbsException if {@code ibv_get_device_list} fails for another reason
     */
    public static List<String> list() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment devices = IbVerbs.ibv_get_device_list(callState, count);
            if (devices.equals(MemorySegment.NULL)) {
                int errno = Errno.get(callState);
                if (errno == Errno.ENOSYS) {
                    return List.of();
                }
                throw new VerbsException("ibv_get_device_list", errno, "listing RDMA devices");
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment array = devices.reinterpret(ADDRESS.byteSize() * n);
                List<String> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    MemorySegment name = IbVerbs.ibv_get_device_name(array.getAtIndex(ADDRESS, i));
                    names.add(name.reinterpret(IBV_SYSFS_NAME_MAX).getString(0));
                }
                return List.copyOf(names);
            } finally {
                IbVerbs.ibv_free_device_list(devices);
            }
        }
    }
}
