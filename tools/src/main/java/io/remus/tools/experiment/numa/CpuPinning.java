package io.remus.tools.experiment.numa;

import io.remus.core.BadArgumentException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Pins the calling platform thread to one NUMA node's CPUs with {@code sched_setaffinity} (pid 0:
 * this thread only), and reads back where it runs with {@code sched_getcpu}.
 */
public final class CpuPinning {
    private CpuPinning() {
    }

    /**
     * @param node     the node whose CPUs the calling thread may run on
     * @param topology this machine's nodes
     * @throws BadArgumentException when the node is not online or has no CPUs
     * @throws NumaCallException    when the kernel refuses
     */
    public static void pinTo(int node, NumaTopology topology) {
        NumaNode n = topology.node(node);
        if (n.cpus().isEmpty()) {
            throw new BadArgumentException("NUMA node " + node + " has no CPUs to run on");
        }
        if (Thread.currentThread().isVirtual()) {
            throw new BadArgumentException("a virtual thread cannot be pinned to a CPU");
        }
        int max = n.cpus().getLast();
        long words = max / 64 + 1;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(ValueLayout.JAVA_LONG, words);
            for (int cpu : n.cpus()) {
                long i = cpu / 64;
                mask.setAtIndex(ValueLayout.JAVA_LONG, i, mask.getAtIndex(ValueLayout.JAVA_LONG, i) | 1L << (cpu % 64));
            }
            LinuxCalls.setAffinity(mask);
        }
    }

    /** @return the CPU the calling thread runs on now */
    public static int currentCpu() {
        return LinuxCalls.currentCpu();
    }
}
