package io.remus.bench.engines;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.fabric.Fabric;

import java.time.Duration;

/**
 * The nodes of a run in this process, shared by the engines: nodes {@code 0..n-1} on one fabric, each a memory and a
 * compute node, started in order and closed in order. Not exported.
 *
 * {@snippet :
 * ClusterConfig base = InProcessNodes.config(n, segmentBytes, threadsPerNode + 1).build();
 * try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
 *     RemusNode[] nodes = cluster.nodes();
 *     // run on the nodes
 * }
 * }
 */
public final class InProcessNodes implements AutoCloseable {
    private final RemusNode[] nodes;

    private InProcessNodes(RemusNode[] nodes) {
        this.nodes = nodes;
    }

    /**
     * {@return a configuration of {@code n} nodes, each a memory and a compute node, with one segment of
     *          {@code segmentBytes}, {@code threadsPerNode} threads each and a 10 s operation timeout, for the caller
     *          to finish}
     *
     * @param n              how many nodes
     * @param segmentBytes   each node's one segment
     * @param threadsPerNode compute threads per node
     */
    public static ClusterConfig.Builder config(int n, long segmentBytes, int threadsPerNode) {
        return ClusterConfig.builder().nodeCount(n)
                .memoryNodes(new NodeRange(0, n - 1)).computeNodes(new NodeRange(0, n - 1))
                .segmentSize(segmentBytes).segmentCount(1).threadsPerNode(threadsPerNode)
                .operationTimeout(Duration.ofSeconds(10));
    }

    /**
     * Starts node {@code i} of {@code base} as {@code base.withNodeId(i)}, for every node in order; when one fails to
     * start, closes those started before it and rethrows.
     *
     * @param fabric the fabric every node opens
     * @param base   the cluster's configuration, any node id
     * @return the started nodes
     */
    public static InProcessNodes start(Fabric fabric, ClusterConfig base) {
        RemusNode[] nodes = new RemusNode[base.nodes().size()];
        InProcessNodes started = new InProcessNodes(nodes);
        try {
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
            }
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** {@return the nodes, by node id: the array itself, for the engine to hand to its run} */
    public RemusNode[] nodes() {
        return nodes;
    }

    /** Closes every started node, in order. */
    @Override
    public void close() {
        for (RemusNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
