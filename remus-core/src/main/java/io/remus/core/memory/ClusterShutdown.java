package io.remus.core.memory;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

/**
 * The orderly shutdown: each compute node, when all its threads are done, announces it once with a
 * NIC fetch-and-add on every memory node's shutdown count; each memory node waits in
 * {@link MemoryNode#awaitShutdown} for all compute nodes before it closes its memory.
 */
public final class ClusterShutdown {
    private ClusterShutdown() {
    }

    /**
     * Announces that the calling thread's compute node is done with remote memory.
     *
     * @param thread any compute thread of the node
     */
    public static void announce(ComputeThread thread) {
        var memoryNodes = thread.config().memoryNodes();
        for (int n = memoryNodes.first(); n <= memoryNodes.last(); n++) {
            thread.fetchAndAdd(RemotePtr.offset(thread.segmentBase(n, 0), ControlBlock.SHUTDOWN), 1);
        }
    }
}
