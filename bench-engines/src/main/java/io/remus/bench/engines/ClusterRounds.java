package io.remus.bench.engines;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.RemusCluster;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The rounds of a benchmark that every process of a joined {@link RemusCluster} runs together, one
 * node each, every node a memory and a compute node: each process makes one instance and opens its
 * rounds in the same order, node 0 with {@link #publish}, the others with {@link #await}. A round goes:
 * <ol>
 * <li>Node 0 writes a directory (the round's serial, its configuration as words, one word of payload
 * such as the pointer of a shared table, a start and a result slot per node) and publishes it
 * through the cluster's {@link Root}. The other nodes poll the root until it names the directory of
 * this round's serial and check that node 0 runs their configuration.</li>
 * <li>Each node marks its start slot once its workers are ready and waits until every node's is
 * marked ({@link Round#ready}).</li>
 * <li>After the run, each node writes its result bytes into a {@link RemoteBlob} on its own node and
 * publishes the pointer in its result slot ({@link Round#publishResult}); node 0 waits for every
 * slot and reads every node's bytes with RDMA READs ({@link Round#collect}).</li>
 * </ol>
 *
 * <p>Directory of one round, on node 0 ({@code n} nodes, {@code c} configuration words):
 * <pre>
 * word  0               the round's serial (1 for the first round of the processes, then 2, ...)
 * words 1..c            the configuration
 * word  c+1             the payload
 * words c+2..c+2+n-1    start slots: 0, then READY, FAILED (its workers did not start) or
 *                       MISMATCH (its configuration differs from node 0's)
 * words c+2+n..         result slots: 0, then the pointer of the node's result blob
 * </pre>
 * Slots change only by compare-and-swap (a word that a device may rewrite in a failing
 * compare-and-swap is never written with an RDMA WRITE); directories and result blobs are not
 * freed: a benchmark process runs a few rounds, and the memory goes with the cluster.
 *
 * <p>A node polls what it waits for with pauses that double from 0.5 ms to 10 ms, so processes that
 * start long before the others (a JVM's start on a slow host) leave the CPU to them; the nodes'
 * workers start within about one pause of each other. Every wait is bounded and names the nodes it
 * still waits for: the directory by the peer timeout, the start by the peer timeout plus the
 * caller's start bound, the results by the caller's bound. Not thread-safe: the calling thread must
 * be the one that uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterRounds {
    /** Start slot: the node's workers are ready. */
    public static final long READY = 1;
    /** Start slot: the node's workers did not start. */
    public static final long FAILED = 2;
    /** Start slot: the node's configuration differs from node 0's. */
    public static final long MISMATCH = 3;

    private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long LONGEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final RemusCluster cluster;
    private final Duration peerTimeout;
    private final String benchmark;
    private long serial;

    /**
     * Rounds over every node of a joined cluster.
     *
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a round (see {@link Timeouts#require})
     * @param benchmark   the benchmark's name for messages, e.g. {@code "lock benchmark"}
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterRounds(RemusCluster cluster, Duration peerTimeout, String benchmark) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.peerTimeout = Timeouts.require(peerTimeout, "peerTimeout");
        this.benchmark = Objects.requireNonNull(benchmark, "benchmark");
        ClusterConfig c = cluster.config();
        NodeRange all = new NodeRange(0, c.nodes().size() - 1);
        if (!c.memoryNodes().equals(all) || !c.computeNodes().equals(all)) {
            throw new BadArgumentException("node " + c.nodeId() + ": the " + benchmark + " needs every node to be a memory "
                    + "and a compute node (" + all + "), but memory nodes are " + c.memoryNodes() + " and compute nodes "
                    + c.computeNodes());
        }
    }

    /** {@return the cluster the rounds run on} */
    public RemusCluster cluster() {
        return cluster;
    }

    /** {@return this node's id} */
    public int nodeId() {
        return cluster.nodeId();
    }

    /** {@return the cluster's node count} */
    public int size() {
        return cluster.size();
    }

    /** {@return how long a node waits for the others at each step} */
    public Duration peerTimeout() {
        return peerTimeout;
    }

    /**
     * Checks that a run's node count is the cluster's size.
     *
     * @param nodes the run's node count
     * @throws BadArgumentException naming both counts when they differ
     */
    public void requireClusterSize(int nodes) {
        if (nodes != cluster.size()) {
            throw new BadArgumentException("node " + cluster.nodeId() + ": the configuration has " + nodes
                    + " nodes but the cluster has " + cluster.size());
        }
    }

    /**
     * Node 0: opens the next round by writing and publishing its directory.
     *
     * @param config  the round's configuration as words
     * @param payload the word the other nodes read with {@link Round#payload()}
     * @return the round
     * @throws BadArgumentException when this is not node 0
     */
    public Round publish(long[] config, long payload) {
        if (cluster.nodeId() != 0) {
            throw new BadArgumentException("node " + cluster.nodeId() + ": only node 0 publishes a round");
        }
        serial++;
        ComputeThread main = cluster.computeThread();
        int n = cluster.size();
        long[] words = new long[2 + config.length + 2 * n];
        words[0] = serial;
        System.arraycopy(config, 0, words, 1, config.length);
        words[1 + config.length] = payload;
        long block = main.allocator().allocate(8L * words.length, 0);
        RemoteBlob.copyOut(main, block, MemorySegment.ofArray(words));
        new Root(main).set(block);
        return new Round(block, config.length, payload);
    }

    /**
     * A node other than 0: waits until node 0 published the next round and checks its configuration.
     *
     * @param config    this node's configuration of the round, as words
     * @param published what node 0 publishes for the round, for the timeout's message (e.g. {@code "lock table"})
     * @param describe  the configuration in words for the mismatch's message
     * @return the round
     * @throws RemoteTimeoutException when node 0 did not publish the round within the peer timeout
     * @throws BadArgumentException   naming both configurations when node 0's differs from this node's
     *                                (its start slot is marked {@link #MISMATCH}, so node 0 fails too)
     */
    public Round await(long[] config, String published, Function<long[], String> describe) {
        serial++;
        ComputeThread main = cluster.computeThread();
        int self = cluster.nodeId();
        Root root = new Root(main);
        long deadline = ThreadTime.nanoTime() + peerTimeout.toNanos();
        long pause = FIRST_POLL_NANOS;
        long directory;
        while (true) {
            directory = root.get();
            if (!RemotePtr.isNull(directory) && main.read(directory) == serial) {
                break;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("node " + self + ": node 0 did not publish the " + published + " of run "
                        + serial + " within " + peerTimeout);
            }
            pause = pause(pause);
        }
        long[] theirs = new long[config.length];
        for (int i = 0; i < config.length; i++) {
            theirs[i] = main.read(RemotePtr.offset(directory, 8L * (1 + i)));
        }
        Round round = new Round(directory, config.length, main.read(RemotePtr.offset(directory, 8L * (1 + config.length))));
        if (!Arrays.equals(theirs, config)) {
            main.compareAndSwap(round.startSlot(self), 0, MISMATCH);
            throw new BadArgumentException("node " + self + ": run " + serial + " differs from node 0's: node 0 runs "
                    + describe.apply(theirs) + ", node " + self + " " + describe.apply(config)
                    + " (give every process the same flags)");
        }
        return round;
    }

    /** Parks for {@code nanos} and returns the next pause: twice as long, at most 10 ms. */
    private static long pause(long nanos) {
        ThreadTime.parkNanos(null, nanos);
        return Math.min(LONGEST_POLL_NANOS, 2 * nanos);
    }

    /** One round, opened by {@link #publish} or {@link #await}. */
    public final class Round {
        private final long directory;
        private final int slots;
        private final long payload;
        private final long number;

        private Round(long directory, int configWords, long payload) {
            this.directory = directory;
            this.slots = 2 + configWords;
            this.payload = payload;
            this.number = serial;
        }

        /** {@return the word node 0 published with the round} */
        public long payload() {
            return payload;
        }

        /** {@return the round's serial: 1 for the first round of the processes, then 2, ...} */
        public long serial() {
            return number;
        }

        /**
         * Marks this node's workers ready and waits until every node's are.
         *
         * @param startBound how long the workers of a node may take to get ready, on top of the peer timeout
         * @throws RemusException         naming a node whose workers did not start or whose configuration differs
         * @throws RemoteTimeoutException naming the nodes not ready within the peer timeout plus {@code startBound}
         */
        public void ready(Duration startBound) {
            ComputeThread main = cluster.computeThread();
            int n = cluster.size();
            main.compareAndSwap(startSlot(cluster.nodeId()), 0, READY);
            Duration bound = peerTimeout.plus(startBound);
            long deadline = ThreadTime.nanoTime() + bound.toNanos();
            List<Integer> waiting = everyNode(n);
            long pause = FIRST_POLL_NANOS;
            while (true) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    int node = it.next();
                    long state = main.read(startSlot(node));
                    if (state == READY) {
                        it.remove();
                    } else if (state == FAILED || state == MISMATCH) {
                        throw new RemusException("node " + cluster.nodeId() + ": run " + number + " cannot start: node " + node
                                + (state == FAILED ? " could not start its workers"
                                : " runs a different configuration than node 0"));
                    }
                }
                if (waiting.isEmpty()) {
                    return;
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node " + cluster.nodeId() + ": node(s) " + waiting + " of " + n
                            + " did not get their " + benchmark + " workers ready for run " + number + " within " + bound);
                }
                pause = pause(pause);
            }
        }

        /**
         * Marks this node's workers as failed to start, so the other nodes fail naming it instead of
         * waiting; a failure to mark leaves the slot unmarked, and they time out naming this node.
         */
        public void markFailed() {
            try {
                cluster.computeThread().compareAndSwap(startSlot(cluster.nodeId()), 0, FAILED);
            } catch (RuntimeException e) {
                // the slot stays unmarked: the other nodes time out naming this node instead
            }
        }

        /**
         * Writes this node's result into a blob on its own node and publishes it to node 0.
         *
         * @param bytes the result, at most {@link RemoteBlob#MAX_LENGTH} bytes
         */
        public void publishResult(byte[] bytes) {
            ComputeThread main = cluster.computeThread();
            int self = cluster.nodeId();
            long blob = RemoteBlob.write(main, main.allocator(), self, bytes);
            main.compareAndSwap(resultSlot(self), 0, blob);
        }

        /**
         * Node 0: waits for every node's result and reads them.
         *
         * @param bound how long the slowest node may take to publish its result
         * @return every node's result bytes, by node id
         * @throws RemoteTimeoutException naming the nodes that sent no result within {@code bound}
         */
        public List<byte[]> collect(Duration bound) {
            return collect(bound, List.of());
        }

        /**
         * Node 0: waits for the result of every node not in {@code absent} and reads them; for a run that goes on
         * without nodes it knows are gone (their processes died), which would never publish.
         *
         * @param bound  how long the slowest node may take to publish its result
         * @param absent nodes whose result is not waited for and not read
         * @return the other nodes' result bytes, in node order
         * @throws RemoteTimeoutException naming the nodes that sent no result within {@code bound}
         */
        public List<byte[]> collect(Duration bound, Collection<Integer> absent) {
            ComputeThread main = cluster.computeThread();
            int n = cluster.size();
            long deadline = ThreadTime.nanoTime() + bound.toNanos();
            long[] blobs = new long[n];
            List<Integer> waiting = everyNode(n);
            waiting.removeAll(absent);
            List<Integer> expected = List.copyOf(waiting);
            long pause = FIRST_POLL_NANOS;
            while (!waiting.isEmpty()) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    int node = it.next();
                    blobs[node] = main.read(resultSlot(node));
                    if (!RemotePtr.isNull(blobs[node])) {
                        it.remove();
                    }
                }
                if (!waiting.isEmpty()) {
                    if (ThreadTime.nanoTime() - deadline > 0) {
                        throw new RemoteTimeoutException("node 0: node(s) " + waiting + " of " + n + " sent no result of run "
                                + number + " within " + bound);
                    }
                    pause = pause(pause);
                }
            }
            List<byte[]> results = new ArrayList<>();
            for (int node : expected) {
                results.add(RemoteBlob.read(main, blobs[node]));
            }
            return results;
        }

        private long startSlot(int node) {
            return RemotePtr.offset(directory, 8L * (slots + node));
        }

        private long resultSlot(int node) {
            return RemotePtr.offset(directory, 8L * (slots + cluster.size() + node));
        }

        private static List<Integer> everyNode(int n) {
            List<Integer> all = new ArrayList<>();
            for (int node = 0; node < n; node++) {
                all.add(node);
            }
            return all;
        }
    }
}
