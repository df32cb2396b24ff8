package io.remus.bench.numa;

import io.remus.core.error.BadArgumentException;
import io.remus.verbs.NumaPlacement;
import io.remus.verbs.VerbsException;

/**
 * Pins the calling platform thread to one NUMA node's CPUs with {@code sched_setaffinity} (pid 0:
 * this thread only), and reads back where it runs with {@code sched_getcpu}, through
 * {@link NumaPlacement}.
 */
public final class CpuPinning {
    private CpuPinning() {
    }

    /**
     * @param node     the node whose CPUs the calling thread may run on
     * @param topology this machine's nodes
     * @throws BadArgumentException when the node is not online or has no CPUs
     * @throws VerbsException      when the kernel refuses, naming the call and errno
     */
    public static void pinTo(int node, NumaTopology topology) {
        NumaNode n = topology.node(node);
        if (n.cpus().isEmpty()) {
            throw new BadArgumentException("NUMA node " + node + " has no CPUs to run on");
        }
        if (Thread.currentThread().isVirtual()) {
            throw new BadArgumentException("a virtual thread cannot be pinned to a CPU");
        }
        NumaPlacement.pinCurrentThread(n.cpus());
    }

    /** @return the CPU the calling thread runs on now */
    public static int currentCpu() {
        return NumaPlacement.currentCpu();
    }
}
