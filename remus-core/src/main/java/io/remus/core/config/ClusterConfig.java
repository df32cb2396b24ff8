package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

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
 * @param operationTimeout     the bound on every wait (completion, barrier, shutdown): at most
 *                             {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER}
 */
public record ClusterConfig(int nodeId, List<String> nodes, NodeRange memoryNodes, NodeRange computeNodes,
                            long segmentSize, int segmentCount, int qpLanesPerPeer, LanePolicy lanePolicy,
                            int threadsPerNode, int opsInFlightPerThread, int bufferSizePerThread, int wrsPerBatch,
                            AllocationPolicy allocationPolicy, Duration operationTimeout) {
    /** The most nodes a cluster may have: node ids are the 16 top bits of a {@link RemotePtr}. */
    public static final int MAX_NODES = RemotePtr.MAX_NODE_ID + 1;
    /** The smallest segment: one page. */
    public static final long MIN_SEGMENT_SIZE = 4096;
    /** The largest segment: 1 TiB. */
    public static final long MAX_SEGMENT_SIZE = 1L << 40;
    /** The most segments per memory node. */
    public static final int MAX_SEGMENT_COUNT = 1024;
    /** The most QP lanes per peer. */
    public static final int MAX_QP_LANES = 64;
    /** The most compute threads per node. */
    public static final int MAX_THREADS_PER_NODE = 1 << 16;
    /** The most operations in flight per thread. */
    public static final int MAX_OPS_IN_FLIGHT = 4096;
    /** The smallest per-thread buffer. */
    public static final int MIN_BUFFER_SIZE = 64;
    /** The largest per-thread buffer: 1 GiB. */
    public static final int MAX_BUFFER_SIZE = 1 << 30;
    /** The most work requests per batch. */
    public static final int MAX_WRS_PER_BATCH = 1024;

    /**
     * Validates the configuration. Null arguments are {@link NullPointerException}s naming the
     * parameter; every value out of range is a {@link BadArgumentException} naming the builder
     * method, the configuration key of {@link ConfigSources} and the value. Two node entries that
     * name the same {@code host:port} (host names compared without case, the default port filled
     * in) are a {@link BadArgumentException} naming both nodes.
     */
    public ClusterConfig {
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(memoryNodes, "memoryNodes");
        Objects.requireNonNull(computeNodes, "computeNodes");
        Objects.requireNonNull(lanePolicy, "lanePolicy");
        Objects.requireNonNull(allocationPolicy, "allocationPolicy");
        Objects.requireNonNull(operationTimeout, "operationTimeout");
        require(!nodes.isEmpty() && nodes.size() <= MAX_NODES,
                "nodes (nodes, hostfile) must hold 1.." + MAX_NODES + " nodes, got " + nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            Objects.requireNonNull(nodes.get(i), "nodes[" + i + "]");
        }
        nodes = List.copyOf(nodes);
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeAddress a = NodeAddress.parse(nodes.get(i), i);
            Integer other = seen.putIfAbsent(a.host().toLowerCase(java.util.Locale.ROOT) + ":" + a.port(), i);
            require(other == null, "nodes (nodes, hostfile): node " + i + "'s address " + a + " ('" + nodes.get(i)
                    + "') is node " + other + "'s too; every node needs its own host:port");
        }
        require(nodeId >= 0 && nodeId < nodes.size(), "nodeId (node.id) " + nodeId + " is not in the node list of " + nodes.size());
        require(memoryNodes.last() < nodes.size(), "memoryNodes (memory.nodes) " + memoryNodes + " exceed the node list of " + nodes.size());
        require(computeNodes.last() < nodes.size(), "computeNodes (compute.nodes) " + computeNodes + " exceed the node list of " + nodes.size());
        require(segmentSize >= MIN_SEGMENT_SIZE && segmentSize % 8 == 0 && segmentSize <= MAX_SEGMENT_SIZE,
                "segmentSize (segment.size) must be a multiple of 8 in 4 KiB..1 TiB, got " + segmentSize);
        require(segmentSize > ControlBlock.heapStart(0, nodes.size()),
                "segmentSize (segment.size) " + segmentSize + " leaves no heap in segment 0, whose control words take "
                        + ControlBlock.heapStart(0, nodes.size()) + " bytes for " + nodes.size() + " nodes");
        require(segmentCount > 0 && segmentCount <= MAX_SEGMENT_COUNT,
                "segmentCount (segment.count) must be 1.." + MAX_SEGMENT_COUNT + ", got " + segmentCount);
        require(qpLanesPerPeer > 0 && qpLanesPerPeer <= MAX_QP_LANES,
                "qpLanesPerPeer (qp.lanes) must be 1.." + MAX_QP_LANES + ", got " + qpLanesPerPeer);
        require(threadsPerNode > 0 && threadsPerNode <= MAX_THREADS_PER_NODE,
                "threadsPerNode (threads.per.node) must be 1.." + MAX_THREADS_PER_NODE + ", got " + threadsPerNode);
        require((long) computeNodes.size() * threadsPerNode <= Integer.MAX_VALUE,
                "threadsPerNode (threads.per.node) " + threadsPerNode + " on " + computeNodes.size()
                        + " compute nodes makes more than " + Integer.MAX_VALUE + " compute threads");
        require(opsInFlightPerThread > 0 && opsInFlightPerThread <= MAX_OPS_IN_FLIGHT,
                "opsInFlightPerThread (ops.in.flight) must be 1.." + MAX_OPS_IN_FLIGHT + ", got " + opsInFlightPerThread);
        require(bufferSizePerThread >= MIN_BUFFER_SIZE && bufferSizePerThread <= MAX_BUFFER_SIZE,
                "bufferSizePerThread (buffer.size) must be 64 B..1 GiB, got " + bufferSizePerThread);
        require(wrsPerBatch > 0 && wrsPerBatch <= MAX_WRS_PER_BATCH,
                "wrsPerBatch (wrs.per.batch) must be 1.." + MAX_WRS_PER_BATCH + ", got " + wrsPerBatch);
        Timeouts.require(operationTimeout, "operationTimeout (timeout.ms)");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }

    /** {@return a builder with defaults: one node that is both memory and compute node} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding this configuration} */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Copies this configuration for another node of the same cluster.
     *
     * @param id another node id
     * @return this configuration as node {@code id} sees it
     */
    public ClusterConfig withNodeId(int id) {
        return toBuilder().nodeId(id).build();
    }

    /**
     * Looks up a node's address.
     *
     * @param id a node id from the node list
     * @return where that node's process listens for connection setup
     * @throws BadArgumentException when the id is not in the node list
     */
    public NodeAddress nodeAddress(int id) {
        require(id >= 0 && id < nodes.size(), "node id " + id + " is not in the node list of " + nodes.size());
        return NodeAddress.parse(nodes.get(id), id);
    }

    /** {@return every node's address, by node id} */
    public List<NodeAddress> nodeAddresses() {
        return java.util.stream.IntStream.range(0, nodes.size()).mapToObj(this::nodeAddress).toList();
    }

    /** {@return whether this node exposes memory} */
    public boolean isMemoryNode() {
        return memoryNodes.contains(nodeId);
    }

    /** {@return whether this node runs compute threads} */
    public boolean isComputeNode() {
        return computeNodes.contains(nodeId);
    }

    /** {@return compute threads in the whole cluster} */
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

        /**
         * Sets this node's id.
         *
         * @param v this node's id
         * @return this builder
         */
        public Builder nodeId(int v) {
            nodeId = v;
            return this;
        }

        /**
         * Sets the node list.
         *
         * @param v {@code host[:port]} entries indexed by node id
         * @return this builder
         */
        public Builder nodes(List<String> v) {
            nodes = Objects.requireNonNull(v, "nodes");
            return this;
        }

        /**
         * Sets a node list of {@code count} generated names.
         *
         * @param count nodes named {@code node0 .. node<count-1>} (one JVM, or a launcher)
         * @return this builder
         * @throws BadArgumentException when {@code count} is not 1..{@link #MAX_NODES} (checked
         *                              before any name is made)
         */
        public Builder nodeCount(int count) {
            if (count <= 0 || count > MAX_NODES) {
                throw new BadArgumentException("nodeCount must be 1.." + MAX_NODES + ", got " + count);
            }
            nodes = java.util.stream.IntStream.range(0, count).mapToObj(i -> "node" + i).toList();
            return this;
        }

        /**
         * Sets the memory nodes.
         *
         * @param v memory nodes (default: every node)
         * @return this builder
         */
        public Builder memoryNodes(NodeRange v) {
            memoryNodes = Objects.requireNonNull(v, "memoryNodes");
            return this;
        }

        /**
         * Sets the compute nodes.
         *
         * @param v compute nodes (default: every node)
         * @return this builder
         */
        public Builder computeNodes(NodeRange v) {
            computeNodes = Objects.requireNonNull(v, "computeNodes");
            return this;
        }

        /**
         * Sets the segment size.
         *
         * @param v bytes per segment
         * @return this builder
         */
        public Builder segmentSize(long v) {
            segmentSize = v;
            return this;
        }

        /**
         * Sets the number of segments per memory node.
         *
         * @param v segments per memory node
         * @return this builder
         */
        public Builder segmentCount(int v) {
            segmentCount = v;
            return this;
        }

        /**
         * Sets the number of QP lanes per peer.
         *
         * @param v QP lanes per peer
         * @return this builder
         */
        public Builder qpLanesPerPeer(int v) {
            qpLanesPerPeer = v;
            return this;
        }

        /**
         * Sets how a thread picks one of its QP lanes for each operation.
         *
         * @param v lane policy
         * @return this builder
         */
        public Builder lanePolicy(LanePolicy v) {
            lanePolicy = Objects.requireNonNull(v, "lanePolicy");
            return this;
        }

        /**
         * Sets the number of compute threads per node.
         *
         * @param v compute threads per node
         * @return this builder
         */
        public Builder threadsPerNode(int v) {
            threadsPerNode = v;
            return this;
        }

        /**
         * Sets the number of operations in flight per thread.
         *
         * @param v operations in flight per thread
         * @return this builder
         */
        public Builder opsInFlightPerThread(int v) {
            opsInFlightPerThread = v;
            return this;
        }

        /**
         * Sets the size of each thread's buffer.
         *
         * @param v bytes of each thread's buffer
         * @return this builder
         */
        public Builder bufferSizePerThread(int v) {
            bufferSizePerThread = v;
            return this;
        }

        /**
         * Sets the number of work requests per batch.
         *
         * @param v work requests per batch
         * @return this builder
         */
        public Builder wrsPerBatch(int v) {
            wrsPerBatch = v;
            return this;
        }

        /**
         * Sets the allocation policy.
         *
         * @param v allocation policy
         * @return this builder
         */
        public Builder allocationPolicy(AllocationPolicy v) {
            allocationPolicy = Objects.requireNonNull(v, "allocationPolicy");
            return this;
        }

        /**
         * Sets the operation timeout.
         *
         * @param v bound on every wait: positive, at most {@link Timeouts#MAX_FINITE}, or
         *          {@link Timeouts#FOREVER} (checked by {@link #build()})
         * @return this builder
         */
        public Builder operationTimeout(Duration v) {
            operationTimeout = Objects.requireNonNull(v, "operationTimeout");
            return this;
        }

        /** {@return the validated configuration} */
        public ClusterConfig build() {
            NodeRange all = new NodeRange(0, nodes.size() - 1);
            return new ClusterConfig(nodeId, nodes, memoryNodes == null ? all : memoryNodes,
                    computeNodes == null ? all : computeNodes, segmentSize, segmentCount, qpLanesPerPeer,
                    lanePolicy, threadsPerNode, opsInFlightPerThread, bufferSizePerThread, wrsPerBatch, allocationPolicy,
                    operationTimeout);
        }
    }
}
