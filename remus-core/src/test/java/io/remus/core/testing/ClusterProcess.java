package io.remus.core.testing;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.verbs.VerbsFabricOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of a cluster whose nodes are separate processes on the verbs fabric (several JVMs on
 * one device, or one per host) or on the shared-memory fabric (several JVMs of one host,
 * {@link ProcessFabric}): its configuration from a host list, and its life from bootstrap to the
 * shutdown handshake. Every node is a memory node and a compute node.
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
     * Joins the cluster with {@link RemusCluster} (opens the fabric and the node, waits until every
     * peer published its memory), runs {@code part}, then closes the cluster, whose shutdown
     * handshake (2 min at most) keeps this node's memory until every node announced it is done.
     *
     * @param options        the fabric options
     * @param config         the node's configuration
     * @param connectTimeout how long to wait for each peer's memory
     * @param part           the work
     * @return what {@code part} returned
     */
    public static <T> T run(VerbsFabricOptions options, ClusterConfig config, Duration connectTimeout, Part<T> part)
            throws Exception {
        return run(RemusCluster.builder().config(config).verbsOptions(options).joinTimeout(connectTimeout), part);
    }

    /**
     * As {@link #run(VerbsFabricOptions, ClusterConfig, Duration, Part)}, on the fabric a child's
     * argument names: the verbs fabric with {@link VerbsFabricOptions#cluster}'s options, or the
     * shared-memory fabric.
     *
     * @param fabric         the fabric
     * @param config         the node's configuration
     * @param connectTimeout how long to wait for each peer's memory
     * @param part           the work
     * @return what {@code part} returned
     */
    public static <T> T run(ProcessFabric fabric, ClusterConfig config, Duration connectTimeout, Part<T> part)
            throws Exception {
        return run(fabric.builder(config, connectTimeout), part);
    }

    /**
     * As {@link #run(VerbsFabricOptions, ClusterConfig, Duration, Part)}, joining with {@code builder}.
     *
     * @param builder the join's settings: configuration, fabric and join timeout
     * @param part    the work
     * @return what {@code part} returned
     */
    public static <T> T run(RemusCluster.Builder builder, Part<T> part) throws Exception {
        try (RemusCluster cluster = builder.shutdownTimeout(Duration.ofMinutes(2)).join()) {
            return part.run(cluster.node(), cluster.computeThread());
        }
    }
}
