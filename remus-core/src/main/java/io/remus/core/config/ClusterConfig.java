package io.remus.core.config;

import io.remus.core.BadArgumentException;
import io.remus.core.RemotePtr;

import java.time.Duration;
import java.util.List;

/**
 * Everything a node needs to join a cluster, in the terms Remus users know. Build it from code
 * ({@link #builder()}), or read it with {@link ConfigSources} from a properties file, command-line
 * arguments or a launcher's environment.
 *
 * @param nodeId               this process's node id
 * @param nodes                every node's address, indexed by node id: {@code host} or
 *                             {@code host:port} (see {@link NodeAddress} for the default port)
 * @param memoryNodes          nodes that expose memory segments
 * @param computeNodes         nodes that run compute threads
 * @param segmentSize          bytes per memory segment
 * @param segmentCount         segments per memory node
 * @param qpLanesPerPeer       queue pairs each compute thread keeps to each peer
 * @param lanePolicy           how a thread picks among those lanes
 * @param threadsPerNode       compute threads per compute node (the barrier waits for all of them)
 * @param opsInFlightPerThread asynchronous operations a thread may have outstanding
 * @param bufferSizePerThread  bytes of each thread's registered buffer
 * @param wrsPerBatch          work requests one doorbell batch may hold
 * @param allocationPolicy     which memory node serves an allocation
 * @param operationTimeout     the bound on every wait (completion, barrier, shutdown)
 */
public record ClusterConfig(int nodeId, List<String> nodes, NodeRange memoryNodes, NodeRange computeNodes,
                            long segmentSize, int segmentCount, int qpLanesPerPeer, LanePolicy lanePolicy,
                            int threadsPerNode, int opsInFlightPerThread, int bufferSizePerThread, int wrsPerBatch,
                            AllocationPolicy allocationPolicy, Duration operationTimeout) {
    /** Validates the configuration; every problem is a {@link BadArgumentException}. */
    public ClusterConfig {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty() || nodes.size() > RemotePtr.MAX_NODE_ID + 1) {
            throw new BadArgumentException("the node list must hold 1.." + (RemotePtr.MAX_NODE_ID + 1) + " nodes, got " + nodes.size());
        }
        for (int i = 0; i < nodes.size(); i++) {
            NodeAddress.parse(nodes.get(i), i);
        }
        require(nodeId >= 0 && nodeId < nodes.size(), "node id " + nodeId + " is not in the node list of " + nodes.size());
        require(memoryNodes.last() < nodes.size(), "memory nodes " + memoryNodes + " exceed the node list of " + nodes.size());
        require(computeNodes.last() < nodes.size(), "compute nodes " + computeNodes + " exceed the node list of " + nodes.size());
        require(segmentSize >= 4096 && segmentSize % 8 == 0 && segmentSize <= (1L << 40),
                "segment size must be a multiple of 8 in 4 KiB..1 TiB, got " + segmentSize);
        require(segmentCount > 0 && segmentCount <= 1024, "segment count must be 1..1024, got " + segmentCount);
        require(qpLanesPerPeer > 0 && qpLanesPerPeer <= 64, "QP lanes per peer must be 1..64, got " + qpLanesPerPeer);
        require(threadsPerNode > 0, "threads per node must be positive, got " + threadsPerNode);
        require(opsInFlightPerThread > 0 && opsInFlightPerThread <= 4096, "operations in flight must be 1..4096, got " + opsInFlightPerThread);
        require(bufferSizePerThread >= 64 && bufferSizePerThread <= (1 << 30), "buffer size must be 64 B..1 GiB, got " + bufferSizePerThread);
        require(wrsPerBatch > 0 && wrsPerBatch <= 1024, "work requests per batch must be 1..1024, got " + wrsPerBatch);
        require(!operationTimeout.isNegative() && !operationTimeout.isZero(), "operation timeout must be positive");
        if (lanePolicy == null || allocationPolicy == null) {
            throw new BadArgumentException("lane and allocation policies must be set");
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }

    /** @return a builder with defaults: one node that is both memory and compute node */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @param id another node id @return this configuration as node {@code id} sees it */
    public ClusterConfig withNodeId(int id) {
        return toBuilder().nodeId(id).build();
    }

    /**
     * @param id a node id from the node list
     * @return where that node's process listens for connection setup
     * @throws BadArgumentException when the id is not in the node list
     */
    public NodeAddress nodeAddress(int id) {
        require(id >= 0 && id < nodes.size(), "node id " + id + " is not in the node list of " + nodes.size());
        return NodeAddress.parse(nodes.get(id), id);
    }

    /** @return every node's address, by node id */
    public List<NodeAddress> nodeAddresses() {
        return java.util.stream.IntStream.range(0, nodes.size()).mapToObj(this::nodeAddress).toList();
    }

    /** @return whether this node exposes memory */
    public boolean isMemoryNode() {
        return memoryNodes.contains(nodeId);
    }

    /** @return whether this node runs compute threads */
    public boolean isComputeNode() {
        return computeNodes.contains(nodeId);
    }

    /** @return compute threads in the whole cluster */
    public int totalComputeThreads() {
        return computeNodes.size() * threadsPerNode;
    }

    /** Mutable builder of a {@link ClusterConfig}; {@link #build()} validates. */
    public static final class Builder {
        private int nodeId;
        private List<String> nodes = List.of("localhost");
        private NodeRange memoryNodes;
        private NodeRange computeNodes;
        private long segmentSize = 1 << 20;
        private int segmentCount = 1;
        private int qpLanesPerPeer = 1;
        private LanePolicy lanePolicy = LanePolicy.ROUND_ROBIN;
        private int threadsPerNode = 1;
        private int opsInFlightPerThread = 16;
        private int bufferSizePerThread = 64 << 10;
        private int wrsPerBatch = 16;
        private AllocationPolicy allocationPolicy = AllocationPolicy.ROUND_ROBIN;
        private Duration operationTimeout = Duration.ofSeconds(5);

        Builder() {
        }

        Builder(ClusterConfig c) {
            nodeId = c.nodeId;
            nodes = c.nodes;
            memoryNodes = c.memoryNodes;
            computeNodes = c.computeNodes;
            segmentSize = c.segmentSize;
            segmentCount = c.segmentCount;
            qpLanesPerPeer = c.qpLanesPerPeer;
            lanePolicy = c.lanePolicy;
            threadsPerNode = c.threadsPerNode;
            opsInFlightPerThread = c.opsInFlightPerThread;
            bufferSizePerThread = c.bufferSizePerThread;
            wrsPerBatch = c.wrsPerBatch;
            allocationPolicy = c.allocationPolicy;
            operationTimeout = c.operationTimeout;
        }

        /** @param v this node's id @return this builder */
        public Builder nodeId(int v) {
            nodeId = v;
            return this;
        }

        /** @param v {@code host[:port]} entries indexed by node id @return this builder */
        public Builder nodes(List<String> v) {
            nodes = v;
            return this;
        }

        /** @param count nodes named {@code node0 .. node<count-1>} (one JVM, or a launcher) @return this builder */
        public Builder nodeCount(int count) {
            if (count <= 0) {
                throw new BadArgumentException("node count must be positive, got " + count);
            }
            nodes = java.util.stream.IntStream.range(0, count).mapToObj(i -> "node" + i).toList();
            return this;
        }

        /** @param v memory nodes (default: every node) @return this builder */
        public Builder memoryNodes(NodeRange v) {
            memoryNodes = v;
            return this;
        }

        /** @param v compute nodes (default: every node) @return this builder */
        public Builder computeNodes(NodeRange v) {
            computeNodes = v;
            return this;
        }

        /** @param v bytes per segment @return this builder */
        public Builder segmentSize(long v) {
            segmentSize = v;
            return this;
        }

        /** @param v segments per memory node @return this builder */
        public Builder segmentCount(int v) {
            segmentCount = v;
            return this;
        }

        /** @param v QP lanes per peer @return this builder */
        public Builder qpLanesPerPeer(int v) {
            qpLanesPerPeer = v;
            return this;
        }

        /** @param v lane policy @return this builder */
        public Builder lanePolicy(LanePolicy v) {
            lanePolicy = v;
            return this;
        }

        /** @param v compute threads per node @return this builder */
        public Builder threadsPerNode(int v) {
            threadsPerNode = v;
            return this;
        }

        /** @param v operations in flight per thread @return this builder */
        public Builder opsInFlightPerThread(int v) {
            opsInFlightPerThread = v;
            return this;
        }

        /** @param v bytes of each thread's buffer @return this builder */
        public Builder bufferSizePerThread(int v) {
            bufferSizePerThread = v;
            return this;
        }

        /** @param v work requests per batch @return this builder */
        public Builder wrsPerBatch(int v) {
            wrsPerBatch = v;
            return this;
        }

        /** @param v allocation policy @return this builder */
        public Builder allocationPolicy(AllocationPolicy v) {
            allocationPolicy = v;
            return this;
        }

        /** @param v bound on every wait @return this builder */
        public Builder operationTimeout(Duration v) {
            operationTimeout = v;
            return this;
        }

        /** @return the validated configuration */
        public ClusterConfig build() {
            NodeRange all = new NodeRange(0, nodes.size() - 1);
            return new ClusterConfig(nodeId, nodes, memoryNodes == null ? all : memoryNodes,
                    computeNodes == null ? all : computeNodes, segmentSize, segmentCount, qpLanesPerPeer,
                    lanePolicy, threadsPerNode, opsInFlightPerThread, bufferSizePerThread, wrsPerBatch, allocationPolicy,
                    operationTimeout);
        }
    }
}
