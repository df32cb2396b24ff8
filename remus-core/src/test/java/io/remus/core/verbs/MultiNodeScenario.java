package io.remus.core.verbs;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemusException;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.memory.ClusterBarrier;
import io.remus.core.memory.ClusterShutdown;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One node's part of the multi-node scenario that the multi-process and cluster tests run: every
 * node is a memory and compute node with its own verbs fabric (its own device context); the nodes
 * bootstrap over rdma_cm (or the TCP fallback) from the configuration's node list, meet at a
 * barrier, do their share of fetch-and-adds on a counter on node 0,
 * compare-and-swap increments on a word on node 1 and writes of their own slot on the last node,
 * meet again, node 0 reports the totals, and every node announces its shutdown and waits for all
 * announcements before it frees its memory.
 */
final class MultiNodeScenario {
    /** Counter word offset in segment 1 of node 0. */
    static final long COUNTER = 4096;
    /** CAS word offset in segment 1 of node 1. */
    static final long CAS_WORD = 4096 + 64;
    /** First slot offset in segment 1 of the last node. */
    static final long SLOTS = 8192;

    private MultiNodeScenario() {
    }

    /** @return node {@code nodeId}'s configuration; node {@code i} listens at {@code hosts[i]:basePort+i} */
    static ClusterConfig config(int nodeId, List<String> hosts, int basePort) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            nodes.add(hosts.get(i) + ":" + (basePort + i));
        }
        int size = hosts.size();
        return ClusterConfig.builder().nodes(nodes).nodeId(nodeId)
                .memoryNodes(new NodeRange(0, size - 1)).computeNodes(new NodeRange(0, size - 1))
                .segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(8192).qpLanesPerPeer(2)
                .operationTimeout(Duration.ofSeconds(20)).build();
    }

    static VerbsFabricOptions options(String device, ClusterConfig config, Duration connectTimeout, BootstrapKind kind) {
        return VerbsFabricOptions.cluster(device, config, connectTimeout).withBootstrap(kind);
    }

    /**
     * Runs this node's part.
     *
     * @return the line node 0 reports ({@code TOTALS faa=.. cas=.. slots=..}), or {@code DONE}
     */
    static String run(VerbsFabricOptions options, ClusterConfig config, int opsPerNode, Duration connectTimeout) {
        int nodeId = config.nodeId();
        int size = config.nodes().size();
        try (VerbsFabric fabric = VerbsFabric.open(options);
             RemusNode node = RemusNode.start(fabric, config)) {
            for (int peer = 0; peer < size; peer++) {
                fabric.awaitPublishedRegions(peer, connectTimeout);
            }
            try (ComputeThread t = node.newComputeThread()) {
                ClusterBarrier barrier = new ClusterBarrier(t);
                barrier.await();
                long counter = RemotePtr.offset(t.segmentBase(0, 1), COUNTER);
                long casWord = RemotePtr.offset(t.segmentBase(Math.min(1, size - 1), 1), CAS_WORD);
                long slot = RemotePtr.offset(t.segmentBase(size - 1, 1), SLOTS + 8L * nodeId);
                for (int k = 0; k < opsPerNode; k++) {
                    t.fetchAndAdd(counter, 1);
                    long seen = t.read(casWord);
                    while (t.compareAndSwap(casWord, seen, seen + 1) != seen) {
                        seen = t.read(casWord);
                    }
                    t.write(slot, k + 1);
                }
                barrier.await();
                String result = "DONE";
                if (nodeId == 0) {
                    long slots = 0;
                    for (int i = 0; i < size; i++) {
                        slots += t.read(RemotePtr.offset(t.segmentBase(size - 1, 1), SLOTS + 8L * i));
                    }
                    result = "TOTALS faa=" + t.read(counter) + " cas=" + t.read(casWord) + " slots=" + slots;
                }
                ClusterShutdown.announce(t);
                node.memoryNode().orElseThrow().awaitShutdown(size, Duration.ofMinutes(2));
                return result;
            }
        }
    }

    /**
     * The killed-peer part: every node runs fetch-and-adds on the counter of node 0 and of the last
     * node; the last node halts abruptly (no cleanup, like a crash) after {@code opsBeforeDeath}.
     *
     * @return for survivors, {@code TYPED <exception class>} once an operation on the dead node failed
     */
    static String runUntilPeerDies(VerbsFabricOptions options, ClusterConfig config, int opsBeforeDeath,
                                   Duration connectTimeout) {
        int nodeId = config.nodeId();
        int size = config.nodes().size();
        try (VerbsFabric fabric = VerbsFabric.open(options);
             RemusNode node = RemusNode.start(fabric, config)) {
            for (int peer = 0; peer < size; peer++) {
                fabric.awaitPublishedRegions(peer, connectTimeout);
            }
            ComputeThread t = node.newComputeThread();
            new ClusterBarrier(t).await();
            long first = RemotePtr.offset(t.segmentBase(0, 1), COUNTER);
            long last = RemotePtr.offset(t.segmentBase(size - 1, 1), COUNTER);
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            for (int k = 0; System.nanoTime() - deadline < 0; k++) {
                if (nodeId == size - 1 && k == opsBeforeDeath) {
                    System.out.println("HALTING");
                    System.out.flush();
                    Runtime.getRuntime().halt(137);
                }
                try {
                    t.fetchAndAdd(first, 1);
                    t.fetchAndAdd(last, 1);
                } catch (RemusException e) {
                    return "TYPED " + e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            }
            return "NO ERROR";
        }
    }
}
