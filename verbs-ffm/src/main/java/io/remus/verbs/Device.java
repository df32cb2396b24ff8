package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.NativeLibraries;
import io.remus.verbs.ffi.ibv_device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/** The RDMA devices of this host ({@code ibv_get_device_list}). Open one with {@link Context#open(String)}. */
public final class Device {
    static final int NAME_MAX = IbVerbs.IBV_SYSFS_NAME_MAX;

    private Device() {
    }

    /**
     * Checks that this host has an RDMA stack: libibverbs loads and exports the verbs. Cheap
     * after the first call (the outcome is remembered); opens no device.
     *
     * @throws NativeLibraryMissingException if not, naming the library, the system property that
     *                                       overrides its path and the Debian package
     */
    public static void requireRdmaStack() {
        NativeLibraries.requireIbverbs();
    }

    /**
     * {@return whether this host has an RDMA stack (see {@link #requireRdmaStack()} for the reason
     *         where it has not)}
     */
    public static boolean rdmaStackAvailable() {
        return NativeLibraries.ibverbsAvailable();
    }

    /**
     * Lists the devices, copying what it reports out of libibverbs' list and freeing the list.
     * A host without an RDMA stack (errno ENOSYS) has no devices.
     *
     * @return the devices in libibverbs' order; empty where there are none
     * @throws NativeLibraryMissingException if libibverbs cannot be loaded or lacks the verbs
     *                                       (every call, not only the first)
     * @throws VerbsException if {@code ibv_get_device_list} fails for another reason
     */
    public static List<DeviceInfo> list() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment devices = IbVerbs.ibv_get_device_list(callState, count);
            if (devices.equals(MemorySegment.NULL)) {
                int errno = Errno.get(callState);
                if (errno == Errno.ENOSYS || errno == 0) {
                    return List.of();
                }
                throw new VerbsException("ibv_get_device_list", errno, "listing RDMA devices");
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment array = devices.reinterpret(ADDRESS.byteSize() * n);
                List<DeviceInfo> infos = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    infos.add(info(array.getAtIndex(ADDRESS, i)));
                }
                return List.copyOf(infos);
            } finally {
                IbVerbs.ibv_free_device_list(devices);
            }
        }
    }

    /**
     * @param device a {@code struct ibv_device *}
     * @return what it reports
     */
    static DeviceInfo info(MemorySegment device) {
        MemorySegment d = device.reinterpret(ibv_device.sizeof());
        return new DeviceInfo(name(d), hostOrder(IbVerbs.ibv_get_device_guid(d)), ibv_device.node_type(d),
                ibv_device.transport_type(d));
    }

    /**
     * @param device a {@code struct ibv_device *}
     * @return its name
     */
    static String name(MemorySegment device) {
        return IbVerbs.ibv_get_device_name(device).reinterpret(NAME_MAX).getString(0);
    }

    /**
     * @param bigEndian a {@code __be64} as read from memory
     * @return the value in host order
     */
    static long hostOrder(long bigEndian) {
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? bigEndian : Long.reverseBytes(bigEndian);
    }

    /**
     * {@return the names of the devices, for messages}
     */
    static List<String> names() {
        return list().stream().map(DeviceInfo::name).toList();
    }
}
