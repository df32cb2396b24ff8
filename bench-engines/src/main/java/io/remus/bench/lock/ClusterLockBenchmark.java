package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.alock.table.LockTable;
import io.remus.bench.engines.ClusterRounds;
import io.remus.bench.stats.LatencySink;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The lock benchmark as one process per node: every process of a joined {@link RemusCluster} (one
 * node each, every node a memory and a compute node) makes one instance and calls {@link #run} with
 * the same configurations in the same order. Each run is one of the cluster's {@link ClusterRounds}:
 * node 0 creates the run's {@link LockTable} and publishes the round with the configuration and the
 * pointer of a {@link RemoteBlob} holding the table's lock words; the other nodes check that node 0
 * runs their configuration and open the same table ({@link LockTable#of}), so every node locks the
 * same lock words. Each node starts its {@code threadsPerNode} workers and releases them once every
 * node's are ready; after the run, each node sends node 0 its counts, its log2 histogram, its
 * failure (if a worker failed) and its caller's attachment.
 *
 * <p>Its waits are those of {@link ClusterRounds}: the table by the peer timeout, the start by the
 * peer timeout plus {@link LockBenchmark#START_BOUND}, the results by the run's duration,
 * {@link LockBenchmark#STOP_BOUND} and the peer timeout; each names the nodes it still waits for. A
 * failure names the node it happened on. Not thread-safe: the calling thread must be the one that
 * uses {@link RemusCluster#computeThread()}.
 */
public final class ClusterLockBenchmark {
    private final ClusterRounds rounds;

    /**
     * @param cluster     the joined cluster: nodes {@code 0..size-1}, each a memory and a compute node
     * @param peerTimeout how long a node waits for the others at each step of a run (see {@link Timeouts#require})
     * @throws BadArgumentException naming the node ranges when not every node is a memory and a compute node
     */
    public ClusterLockBenchmark(RemusCluster cluster, Duration peerTimeout) {
        this.rounds = new ClusterRounds(cluster, peerTimeout, "lock benchmark");
    }

    /** {@return this node's id} */
    public int nodeId() {
        return rounds.nodeId();
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
        int self = rounds.nodeId();
        int n = rounds.size();
        rounds.requireClusterSize(config.nodes());
        RemusCluster cluster = rounds.cluster();
        ComputeThread main = cluster.computeThread();
        ClusterRounds.Round round;
        LockTable table;
        if (self == 0) {
            table = LockTable.create(main, config.kind(), config.keys());
            long[] words = new long[table.size()];
            for (int i = 0; i < words.length; i++) {
                words[i] = table.word(i);
            }
            round = rounds.publish(configWords(config), RemoteBlob.write(main, main.allocator(), 0, toBytes(words)));
        } else {
            round = rounds.await(configWords(config), "lock table", ClusterLockBenchmark::describe);
            table = openTable(main, round.payload(), config);
        }
        RemusNode[] nodes = new RemusNode[n];
        nodes[self] = cluster.node();
        LockBenchmark.Measured measured;
        try {
            measured = LockBenchmark.measure(nodes, self, self, table, config, sinks,
                    () -> round.ready(LockBenchmark.START_BOUND));
        } catch (RuntimeException e) {
            round.markFailed();
            throw e;
        }
        byte[] extra = measured.failure() == null ? attachment.get() : new byte[0];
        round.publishResult(encode(measured, extra));
        if (self != 0) {
            if (measured.failure() != null) {
                throw new RemusException("node " + self + ": a lock benchmark worker failed: " + measured.failure(),
                        measured.failure());
            }
            return List.of(new NodeLockResult(self, measured.result(), extra));
        }
        return decode(round.collect(config.duration().plus(LockBenchmark.STOP_BOUND).plus(rounds.peerTimeout())),
                config, round.serial());
    }

    private static LockTable openTable(ComputeThread main, long tableBlob, LockBenchmarkConfig config) {
        ByteBuffer bytes = ByteBuffer.wrap(RemoteBlob.read(main, tableBlob)).order(ByteOrder.nativeOrder());
        long[] words = new long[config.keys()];
        bytes.asLongBuffer().get(words);
        return LockTable.of(config.kind(), words);
    }

    private static List<NodeLockResult> decode(List<byte[]> blobs, LockBenchmarkConfig config, long serial) {
        List<NodeLockResult> results = new ArrayList<>();
        StringBuilder failures = new StringBuilder();
        for (int node = 0; node < blobs.size(); node++) {
            ByteBuffer b = ByteBuffer.wrap(blobs.get(node)).order(ByteOrder.nativeOrder());
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
                c.localBudget(), c.remoteBudget(), c.duration().toNanos(), c.seed(), c.criticalSectionOps()};
    }

    private static String describe(long[] w) {
        LockKind[] kinds = LockKind.values();
        String kind = w[0] >= 0 && w[0] < kinds.length ? kinds[(int) w[0]].cliName() : "kind #" + w[0];
        return kind + " on " + w[1] + " nodes x " + w[2] + " threads, p-local " + Double.longBitsToDouble(w[3]) + ", "
                + w[4] + " keys, budgets " + w[5] + "/" + w[6] + ", " + Duration.ofNanos(w[7]) + ", seed " + w[8]
                + ", critical section ops " + w[9];
    }

    private static byte[] toBytes(long[] words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.nativeOrder());
        b.asLongBuffer().put(words);
        return b.array();
    }
}
