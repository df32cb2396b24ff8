package io.remus.core;

import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

/**
 * The orderly shutdown: each compute node, when all its threads are done, announces it once on
 * every memory node by setting its bit in the shutdown bitmap and adding 1 to the shutdown count
 * ({@link ControlBlock}); each memory node waits in {@link MemoryNode#awaitShutdown} for all
 * compute nodes before it closes its memory, and names the nodes whose bits are missing when it
 * times out.
 */
final class ClusterShutdown {
    private ClusterShutdown() {
    }

    /**
     * Announces that the calling thread's compute node is done with remote memory. Announcing again
     * changes nothing.
     *
     * <p>RDMA operations per memory node: one compare-and-swap on the bitmap word, one more for each
     * other node that set a bit of that word meanwhile (at most 63), and one fetch-and-add on the
     * count when the bit was not set before. Wait-free.
     *
     * @param thread any compute thread of the node
     */
    public static void announce(ComputeThread thread) {
        var memoryNodes = thread.config().memoryNodes();
        int id = thread.nodeId();
        long bit = 1L << (id % 64);
        for (int n = memoryNodes.first(); n <= memoryNodes.last(); n++) {
            long base = thread.segmentBase(n, 0);
            long word = RemotePtr.offset(base, ControlBlock.SHUTDOWN_NODES + 8L * (id / 64));
            long expected = 0;
            long was = thread.compareAndSwap(word, expected, bit);
            while (was != expected && (was & bit) == 0) {
                expected = was;
                was = thread.compareAndSwap(word, expected, expected | bit);
            }
            if ((was & bit) == 0) {
                thread.fetchAndAdd(RemotePtr.offset(base, ControlBlock.SHUTDOWN), 1);
            }
        }
    }
}
