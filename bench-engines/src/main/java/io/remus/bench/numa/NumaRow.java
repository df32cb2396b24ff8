package io.remus.bench.numa;

import io.remus.bench.stats.LatencySummary;

/**
 * One placement of the NUMA experiment.
 *
 * @param cpuNode        the node whose CPUs the measuring thread was pinned to
 * @param cpuSeen        the CPU {@code sched_getcpu} reported after pinning
 * @param memoryNode     the node the memory was bound to
 * @param pagesOnNode    the fraction of its pages the kernel reports on {@code memoryNode} (0..1)
 * @param chaseNanos     dependent-load latency, nanoseconds per load
 * @param sequentialGBps one thread's sequential read bandwidth, GB/s
 * @param rdmaRead       loopback-QP RDMA READ latency from the memory (nanoseconds, a round trip), or
 *                       null when no fabric was used
 */
public record NumaRow(int cpuNode, int cpuSeen, int memoryNode, double pagesOnNode, double chaseNanos,
                      double sequentialGBps, LatencySummary rdmaRead) {
    /** @return whether thread and memory are on the same node */
    public boolean local() {
        return cpuNode == memoryNode;
    }
}
