package io.remus.bench.devices;

import io.remus.verbs.DeviceAttributes;
import io.remus.verbs.DeviceInfo;

import java.util.List;

/**
 * What {@code remus devices} shows about one device.
 *
 * @param info          the device as {@code ibv_get_device_list} lists it
 * @param attributes    what {@code ibv_query_device} reported
 * @param ports         its ports, from 1
 * @param maxInlineData the largest inline size a reliable-connected QP was created with (probed), or -1
 *                      when the probe failed
 */
public record DeviceReport(DeviceInfo info, DeviceAttributes attributes, List<PortReport> ports, int maxInlineData) {
    /** Copies the port list. */
    public DeviceReport {
        ports = List.copyOf(ports);
    }

    /** @return the atomic capability as {@code ibv_devinfo} names it, with what it means */
    public String atomicCapability() {
        return switch (attributes.atomicCapability()) {
            case 0 -> "ATOMIC_NONE (no RDMA atomics)";
            case 1 -> "ATOMIC_HCA (atomic among RDMA atomics only, not with CPU atomics)";
            case 2 -> "ATOMIC_GLOB (atomic with CPU atomics too)";
            default -> "unknown (" + attributes.atomicCapability() + ")";
        };
    }
}
