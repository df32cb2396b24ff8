package io.remus.bench.numa;

import java.util.List;

/**
 * One online NUMA node as {@code /sys/devices/system/node} describes it.
 *
 * @param id        the node number
 * @param cpus      its online CPUs, ascending (empty for a memory-only node)
 * @param hasMemory whether it has memory of its own (listed in {@code has_memory})
 */
public record NumaNode(int id, List<Integer> cpus, boolean hasMemory) {
    /** Copies the CPU list. */
    public NumaNode {
        cpus = List.copyOf(cpus);
    }
}
