package io.remus.alock.bench;

import io.remus.alock.LockKind;
import io.remus.alock.table.LockTable;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;
import io.remus.core.RemusCluster;
import io.remus.core.RemusException;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.config.Timeouts;
import io.remus.core.memory.RemoteAllocator;
import io.remus.core.memory.Root;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The lock benchmark as one process per node: every process of a joined {@link RemusCluster} (one
 * node each, every node a memory and a compute node) makes one instance and calls {@link #run} with
 * the same configurations in the same order. Each run goes:
 * <ol>
 * <li>Node 0 creates the run's {@link LockTable}, writes a directory (the run's serial, its
 * configuration, the table's lock words, a start and a result slot per node) and publishes it
 * through the cluster's {@link Root}. The other nodes poll the root until it names the directory of
 * this run's serial, check that node 0 runs their configuration, and open the same table
 * ({@link LockTable#of}): every node locks the same lock words.</li>
 * <li>Each node starts its {@code threadsPerNode} workers, marks its start slot once they are
 * ready, and releases them once every node's start slot is marked.</li>
 * <li>After the run, each node writes its counts, its log2 histogram, its failure (if a worker
 * failed) and its caller's attachment into a {@link RemoteBlob} on its own node and publishes the
 * pointer in its result slot with a compare-and-swap. Node 0 waits for every slot and reads every
 * node's result with RDMA READs.</li>
 * </ol>
 *
 * <p>Directory of one run, on node 0 ({@code n} nodes):
 * <pre>
 * word  0           the run's serial (1 for the first run of the processes, then 2, ...)
 * words 1..9        the configuration: kind, nodes, threads per node, pLocal (IEEE bits), keys,
 *                   local budget, remote budget, duration in ns, seed
 * word  10          pointer of the lock table's words (a RemoteBlob of keys words)
 * words 11..11+n-1  start slots: 0, then READY, FAILED (its workers did not start) or
 *                   MISMATCH (its configuration differs from node 0's)
 * words 11+n..      result slots: 0, then the pointer of the node's result blob
 * </pre>
 * Slots change only by compare-and-swap (a word that a device may rewrite in a failing
 * compare-and-swap is never written with an RDMA WRITE); the directory, the table and the result
 * blobs are not freed: a benchmark process runs a few points, and the memory goes with the cluster.
 *
 * <p>A node polls what it waits for with pauses that double from 0.5 ms to 10 ms, so processes
 * that start long before the others (a JVM's start on a slow host) leave the CPU to them; the
 * nodes' workers start within about one pause of each other. Every wait is bounded and names the
 * nodes it still waits for: the directory and the start by
 * the peer timeout (plus {@link LockBenchmark#START_BOUND} for the start), the results by the run's
 * duration, {@link LockBenchmark#STOP_BOUND} and the peer timeout. A failure names the node it
 * happened on. Not thread-safe: the calling thread must be the one that uses
 * {@link RemusCluster#computeThread()}.
 */
public final class ClusterLockBenchmark {
    /** Start slot: the node's workers are ready. */
    static final long READY = 1;
    /** Start slot: the node's workers did not start. */
    static final long FAILED = 2;
    /** Start slot: the node's configuration differs from node 0's. */
    static final long MISMATCH = 3;

    private static final int SERIAL = 0;
    private static final int CONFIG = 1;
    private static final int CONFIG_WORDS = 9;
    private static final int TABLE = CONFIG + CONFIG_WORDS;
    private static final int SLOTS = TABLE + 1;
    private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long LONGEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final RemusCluster cluster;
    private final Duration peerTimeout;
    private long serial;

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterLockBenchmark(RemusCluster cluster, Duration peerTimeout) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.peerTimeout = Timeouts.require(peerTimeout, "peerTimeout");
        ClusterConfig c = cluster.config();
        NodeRange all = new NodeRange(0, c.nodes().size() - 1);
        if (!c.memoryNodes().equals(all) || !c.computeNodes().equals(all)) {
            throw new BadArgumentException("node " + c.nodeId() + ": the lock benchmark needs every node to be a memory "
                    + "and a compute node (" + all + "), but memory nodes are " + c.memoryNodes() + " and compute nodes "
                    + c.computeNodes());
        }
    }

    /** @return this node's id */
    public int nodeId() {
        return cluster.nodeId();
    }

    /**
     * Runs one configuration on this node, together with the other nodes.
     *
     * @param config     what to run; {@code nodes} must be the cluster's size, and every node must pass the same
     * @param sinks      the sink of each of this node's workers, by its index {@code 0..threadsPerNode-1}
     * @param attachment bytes this node sends to node 0 with its result, asked for after its workers stopped
     *                   (at most {@link RemoteBlob#MAX_LENGTH} bytes with the rest of the result)
     * @return on node 0 every node's result, by node id; on the other nodes only their own
     * @throws BadArgumentException   when the configuration's node count is not the cluster's size, or (naming
     *                                both) when this node's configuration differs from node 0's
     * @throws RemoteTimeoutException naming the nodes that did not reach a step in time
     * @throws RemusException         naming the node whose workers failed
     * @throws InterruptedException   when interrupted while the workers run
     */
    public List<NodeLockResult> run(LockBenchmarkConfig config, IntFunction<LatencySink> sinks, Supplier<byte[]> attachment)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        Objects.requireNonNull(attachment, "attachment");
        int self = cluster.nodeId();
        int n = cluster.size();
        if (config.nodes() != n) {
            throw new BadArgumentException("node " + self + ": the configuration has " + config.nodes()
                    + " nodes but the cluster has " + n);
        }
        serial++;
        ComputeThread main = cluster.computeThread();
        RemoteAllocator allocator = new RemoteAllocator(main);
        long directory;
        LockTable table;
        if (self == 0) {
            table = LockTable.create(main, config.kind(), config.keys());
            directory = publish(main, allocator, config, table, n);
        } else {
            directory = awaitDirectory(main);
            checkSameConfig(main, directory, config);
            table = openTable(main, directory, config);
        }
        RemusNode[] nodes = new RemusNode[n];
        nodes[self] = cluster.node();
        LockBenchmark.Measured measured;
        try {
            measured = LockBenchmark.measure(nodes, self, self, table, config, sinks, () -> {
                main.compareAndSwap(startSlot(directory, self), 0, READY);
                awaitStarts(main, directory, n);
            });
        } catch (RuntimeException e) {
            markFailed(main, directory, self);
            throw e;
        }
        byte[] extra = measured.failure() == null ? attachment.get() : new byte[0];
        long blob = RemoteBlob.write(main, allocator, self, encode(measured, extra));
        main.compareAndSwap(resultSlot(directory, n, self), 0, blob);
        if (self != 0) {
            if (measured.failure() != null) {
                throw new RemusException("node " + self + ": a lock benchmark worker failed: " + measured.failure(),
                        measured.failure());
            }
            return List.of(new NodeLockResult(self, measured.result(), extra));
        }
        return collect(main, directory, config, n);
    }

    private long publish(ComputeThread main, RemoteAllocator allocator, LockBenchmarkConfig config, LockTable table, int n) {
        long[] words = new long[table.size()];
        for (int i = 0; i < words.length; i++) {
            words[i] = table.word(i);
        }
        long tableBlob = RemoteBlob.write(main, allocator, 0, toBytes(words));
        long[] directory = new long[SLOTS + 2 * n];
        directory[SERIAL] = serial;
        System.arraycopy(configWords(config), 0, directory, CONFIG, CONFIG_WORDS);
        directory[TABLE] = tableBlob;
        long block = allocator.allocate(8L * directory.length, 0);
        RemoteBlob.copyOut(main, block, MemorySegment.ofArray(directory));
        new Root(main).set(block);
        return block;
    }

    private long awaitDirectory(ComputeThread main) {
        Root root = new Root(main);
        long deadline = System.nanoTime() + peerTimeout.toNanos();
        long pause = FIRST_POLL_NANOS;
        while (true) {
            long directory = root.get();
            if (!RemotePtr.isNull(directory) && main.read(RemotePtr.offset(directory, 8L * SERIAL)) == serial) {
                return directory;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("node " + cluster.nodeId() + ": node 0 did not publish the lock table of run "
                        + serial + " within " + peerTimeout);
            }
            pause = pause(pause);
        }
    }

    private void checkSameConfig(ComputeThread main, long directory, LockBenchmarkConfig config) {
        long[] theirs = new long[CONFIG_WORDS];
        for (int i = 0; i < CONFIG_WORDS; i++) {
            theirs[i] = main.read(RemotePtr.offset(directory, 8L * (CONFIG + i)));
        }
        if (!Arrays.equals(theirs, configWords(config))) {
            int self = cluster.nodeId();
            main.compareAndSwap(startSlot(directory, self), 0, MISMATCH);
            throw new BadArgumentException("node " + self + ": run " + serial + " differs from node 0's: node 0 runs "
                    + describe(theirs) + ", node " + self + " " + describe(configWords(config))
                    + " (give every process the same flags)");
        }
    }

    private static LockTable openTable(ComputeThread main, long directory, LockBenchmarkConfig config) {
        long tableBlob = main.read(RemotePtr.offset(directory, 8L * TABLE));
        ByteBuffer bytes = ByteBuffer.wrap(RemoteBlob.read(main, tableBlob)).order(ByteOrder.nativeOrder());
        long[] words = new long[config.keys()];
        bytes.asLongBuffer().get(words);
        return LockTable.of(config.kind(), words);
    }

    private void awaitStarts(ComputeThread main, long directory, int n) {
        long deadline = System.nanoTime() + peerTimeout.toNanos() + LockBenchmark.START_BOUND.toNanos();
        List<Integer> waiting = new ArrayList<>();
        for (int node = 0; node < n; node++) {
            waiting.add(node);
        }
        long pause = FIRST_POLL_NANOS;
        while (true) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                int node = it.next();
                long state = main.read(startSlot(directory, node));
                if (state == READY) {
                    it.remove();
                } else if (state == FAILED || state == MISMATCH) {
                    throw new RemusException("node " + cluster.nodeId() + ": run " + serial + " cannot start: node " + node
                            + (state == FAILED ? " could not start its workers" : " runs a different configuration than node 0"));
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("node " + cluster.nodeId() + ": node(s) " + waiting + " of " + n
                        + " did not get their lock benchmark workers ready for run " + serial + " within "
                        + Duration.ofNanos(peerTimeout.toNanos() + LockBenchmark.START_BOUND.toNanos()));
            }
            pause = pause(pause);
        }
    }

    private static void markFailed(ComputeThread main, long directory, int self) {
        try {
            main.compareAndSwap(startSlot(directory, self), 0, FAILED);
        } catch (RuntimeException e) {
            // the slot stays unmarked: the other nodes time out naming this node instead
        }
    }

    private List<NodeLockResult> collect(ComputeThread main, long directory, LockBenchmarkConfig config, int n) {
        Duration bound = config.duration().plus(LockBenchmark.STOP_BOUND).plus(peerTimeout);
        long deadline = System.nanoTime() + bound.toNanos();
        long[] blobs = new long[n];
        List<Integer> waiting = new ArrayList<>();
        for (int node = 0; node < n; node++) {
            waiting.add(node);
        }
        long pause = FIRST_POLL_NANOS;
        while (!waiting.isEmpty()) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                int node = it.next();
                blobs[node] = main.read(resultSlot(directory, n, node));
                if (!RemotePtr.isNull(blobs[node])) {
                    it.remove();
                }
            }
            if (!waiting.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node 0: node(s) " + waiting + " of " + n + " sent no result of run "
                            + serial + " within " + bound);
                }
                pause = pause(pause);
            }
        }
        List<NodeLockResult> results = new ArrayList<>();
        StringBuilder failures = new StringBuilder();
        for (int node = 0; node < n; node++) {
            ByteBuffer b = ByteBuffer.wrap(RemoteBlob.read(main, blobs[node])).order(ByteOrder.nativeOrder());
            long ops = b.getLong();
            long local = b.getLong();
            long elapsed = b.getLong();
            long[] histogram = new long[64];
            b.asLongBuffer().get(histogram);
            b.position(b.position() + 8 * 64);
            byte[] failure = new byte[b.getInt()];
            b.get(failure);
            byte[] extra = new byte[b.getInt()];
            b.get(extra);
            if (failure.length > 0) {
                failures.append(failures.isEmpty() ? "" : "; ").append("node ").append(node).append(": ")
                        .append(new String(failure, StandardCharsets.UTF_8));
            }
            results.add(new NodeLockResult(node, new LockBenchmarkResult(config.kind(), ops, local, elapsed, histogram), extra));
        }
        if (!failures.isEmpty()) {
            throw new RemusException("lock benchmark run " + serial + " failed: " + failures);
        }
        return results;
    }

    /** Parks for {@code nanos} and returns the next pause: twice as long, at most 10 ms. */
    private static long pause(long nanos) {
        LockSupport.parkNanos(nanos);
        return Math.min(LONGEST_POLL_NANOS, 2 * nanos);
    }

    private static byte[] encode(LockBenchmark.Measured measured, byte[] extra) {
        LockBenchmarkResult r = measured.result();
        byte[] failure = measured.failure() == null ? new byte[0]
                : ("a lock benchmark worker failed: " + measured.failure()).getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 * 3 + 8 * 64 + 4 + failure.length + 4 + extra.length)
                .order(ByteOrder.nativeOrder());
        b.putLong(r.operations()).putLong(r.localOperations()).putLong(r.elapsedNanos());
        for (long c : r.latencyLog2Nanos()) {
            b.putLong(c);
        }
        b.putInt(failure.length).put(failure).putInt(extra.length).put(extra);
        return b.array();
    }

    private static long[] configWords(LockBenchmarkConfig c) {
        return new long[]{c.kind().ordinal(), c.nodes(), c.threadsPerNode(), Double.doubleToLongBits(c.pLocal()), c.keys(),
                c.localBudget(), c.remoteBudget(), c.duration().toNanos(), c.seed()};
    }

    private static String describe(long[] w) {
        LockKind[] kinds = LockKind.values();
        String kind = w[0] >= 0 && w[0] < kinds.length ? kinds[(int) w[0]].cliName() : "kind #" + w[0];
        return kind + " on " + w[1] + " nodes x " + w[2] + " threads, p-local " + Double.longBitsToDouble(w[3]) + ", "
                + w[4] + " keys, budgets " + w[5] + "/" + w[6] + ", " + Duration.ofNanos(w[7]) + ", seed " + w[8];
    }

    private static byte[] toBytes(long[] words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.nativeOrder());
        b.asLongBuffer().put(words);
        return b.array();
    }

    private static long startSlot(long directory, int node) {
        return RemotePtr.offset(directory, 8L * (SLOTS + node));
    }

    private static long resultSlot(long directory, int n, int node) {
        return RemotePtr.offset(directory, 8L * (SLOTS + n + node));
    }
}
