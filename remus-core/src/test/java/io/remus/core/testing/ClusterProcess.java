package io.remus.core.testing;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.memory.ClusterShutdown;
import io.remus.core.verbs.VerbsFabric;
import io.remus.core.verbs.VerbsFabricOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of a cluster whose nodes are separate processes on the verbs fabric (several JVMs on
 * one device, or one per host): its configuration from a host list, and its life from bootstrap
 * to the shutdown handshake. Every node is a memory node and a compute node.
 */
public final class ClusterProcess {
    private ClusterProcess() {
    }

    /** This process's work, between bootstrap and shutdown. */
    @FunctionalInterface
    public interface Part<T> {
        /**
         * @param node the started node (for more compute threads)
         * @param main a compute thread of the calling thread, open until after the shutdown handshake
         * @return what the process reports
         */
        T run(RemusNode node, ComputeThread main) throws Exception;
    }

    /**
     * @param nodeId   this process's node
     * @param hosts    every node's host; node {@code i} listens at {@code hosts[i]:basePort+i}
     * @param basePort node 0's port
     * @return the configuration: two 64 KiB segments per node, a 20 s operation timeout
     */
    public static ClusterConfig config(int nodeId, List<String> hosts, int basePort) {
        return builder(nodeId, hosts, basePort).build();
    }

    /**
     * @param nodeId   this process's node
     * @param hosts    every node's host; node {@code i} listens at {@code hosts[i]:basePort+i}
     * @param basePort node 0's port
     * @return a builder with {@link #config}'s settings, for changes
     */
    public static ClusterConfig.Builder builder(int nodeId, List<String> hosts, int basePort) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            nodes.add(hosts.get(i) + ":" + (basePort + i));
        }
        int size = hosts.size();
        return ClusterConfig.builder().nodes(nodes).nodeId(nodeId)
                .memoryNodes(new NodeRange(0, size - 1)).computeNodes(new NodeRange(0, size - 1))
                .segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(8192).qpLanesPerPeer(2)
                .operationTimeout(Duration.ofSeconds(20));
    }

    /**
     * Opens the fabric and the node, waits until every peer published its memory, runs
     * {@code part}, then announces this node's shutdown and waits (2 min at most) until every node
     * announced before freeing its memory, so that no peer still reaches it.
     *
     * @param options        the fabric options
     * @param config         the node's configuration
     * @param connectTimeout how long to wait for each peer's memory
     * @param part           the work
     * @return what {@code part} returned
     */
    public static <T> T run(VerbsFabricOptions options, ClusterConfig config, Duration connectTimeout, Part<T> part)
            throws Exception {
        int size = config.nodes().size();
        try (VerbsFabric fabric = VerbsFabric.open(options);
             RemusNode node = RemusNode.start(fabric, config)) {
            for (int peer = 0; peer < size; peer++) {
                fabric.awaitPublishedRegions(peer, connectTimeout);
            }
            try (ComputeThread main = node.newComputeThread()) {
                T result = part.run(node, main);
                ClusterShutdown.announce(main);
                node.memoryNode().orElseThrow().awaitShutdown(size, Duration.ofMinutes(2));
                return result;
            }
        }
    }
}
