package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

import java.util.Objects;

/**
 * What a device supports ({@code ibv_query_device}), copied out.
 *
 * @param firmwareVersion          {@code fw_ver}
 * @param nodeGuid                 {@code node_guid}, in host byte order
 * @param maxMemoryRegionSize      {@code max_mr_size}
 * @param maxQueuePairs            {@code max_qp}
 * @param maxQueuePairWorkRequests {@code max_qp_wr}
 * @param maxScatterGather         {@code max_sge}
 * @param maxCompletionQueues      {@code max_cq}
 * @param maxCompletionQueueEntries {@code max_cqe}
 * @param maxMemoryRegions         {@code max_mr}
 * @param maxProtectionDomains     {@code max_pd}
 * @param maxQueuePairReadAtomic   {@code max_qp_rd_atom}: outstanding READs/atomics a QP may serve
 * @param maxQueuePairInitiatorReadAtomic {@code max_qp_init_rd_atom}: outstanding READs/atomics a QP may issue
 * @param atomicCapability         {@code atomic_cap}: 0 none, 1 HCA (atomic only among RDMA atomics), 2 global
 * @param maxSharedReceiveQueues   {@code max_srq}
 * @param maxSharedReceiveQueueWorkRequests {@code max_srq_wr}
 * @param maxSharedReceiveQueueScatterGather {@code max_srq_sge}
 * @param physicalPortCount        {@code phys_port_cnt}; ports are numbered from 1
 * @param vendorId                 {@code vendor_id}: the IEEE OUI of the maker (0x02c9 Mellanox/NVIDIA;
 *                                 Soft-RoCE reports 0xffffff)
 * @param vendorPartId             {@code vendor_part_id}: the maker's model (for ConnectX, the PCI device id)
 */
public record DeviceAttributes(String firmwareVersion, long nodeGuid, long maxMemoryRegionSize,
                               int maxQueuePairs, int maxQueuePairWorkRequests, int maxScatterGather,
                               int maxCompletionQueues, int maxCompletionQueueEntries, int maxMemoryRegions,
                               int maxProtectionDomains, int maxQueuePairReadAtomic,
                               int maxQueuePairInitiatorReadAtomic, int atomicCapability,
                               int maxSharedReceiveQueues, int maxSharedReceiveQueueWorkRequests,
                               int maxSharedReceiveQueueScatterGather, int physicalPortCount, int vendorId,
                               int vendorPartId) {
    /** Checks that no component is null. */
    public DeviceAttributes {
        Objects.requireNonNull(firmwareVersion, "firmwareVersion");
    }

    /** {@return whether RDMA atomics are supported at all} */
    public boolean supportsAtomics() {
        return atomicCapability != IbVerbs.IBV_ATOMIC_NONE;
    }

    /** {@return whether RDMA atomics are atomic with respect to CPU atomics too ({@code IBV_ATOMIC_GLOB})} */
    public boolean atomicsAreGlobal() {
        return atomicCapability == IbVerbs.IBV_ATOMIC_GLOB;
    }
}
