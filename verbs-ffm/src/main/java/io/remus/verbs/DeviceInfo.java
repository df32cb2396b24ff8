package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

import java.util.Objects;

/**
 * One RDMA device as {@link Device#list()} reports it, copied out of libibverbs' list.
 *
 * @param name          the device name, e.g. {@code rxe0} or {@code mlx5_0}
 * @param guid          the node GUID, in host byte order
 * @param nodeType      the {@code enum ibv_node_type} code (1: channel adapter, 4: RNIC)
 * @param transportType the {@code enum ibv_transport_type} code (0: InfiniBand, also for RoCE)
 */
public record DeviceInfo(String name, long guid, int nodeType, int transportType) {
    /** Checks that no component is null. */
    public DeviceInfo {
        Objects.requireNonNull(name, "name");
    }

    /** {@return whether this is a channel adapter (InfiniBand or RoCE NIC, or Soft-RoCE)} */
    public boolean isChannelAdapter() {
        return nodeType == IbVerbs.IBV_NODE_CA;
    }

    @Override
    public String toString() {
        return name + " (guid " + String.format("%016x", guid) + ", node type " + nodeType
                + ", transport " + transportType + ")";
    }
}
