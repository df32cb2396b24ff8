package io.remus.bench.lock;

import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.core.error.RemusException;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.DataFormatException;

/**
 * Runs one lock benchmark point as one node of a cluster of processes ({@link ClusterLockBenchmark}):
 * this node's workers record into one fixed-range HdrHistogram each ({@link LatencyHistograms}),
 * merged into the node's histogram, which travels to node 0 compressed
 * ({@link Histogram#encodeIntoCompressedByteBuffer}) with the node's counts over RDMA. Node 0 merges
 * every node's histogram with {@link Histogram#add} and sums their counts into one {@link LockRun}.
 */
public final class ClusterLockRunner {
    private ClusterLockRunner() {
    }

    /**
     * What one node's run gives.
     *
     * @param node      this node's own run: its workers' counts and latencies only
     * @param aggregate      on node 0, the run of every node together: operations summed, the latency
     *                       histograms merged, the wall time the longest of any node's; empty on the others
     * @param nodeOperations on node 0, every node's lock/unlock pairs by node id; empty on the others
     */
    public record NodeRun(LockRun node, Optional<LockRun> aggregate, List<Long> nodeOperations) {
        /** Copies the list. */
        public NodeRun {
            nodeOperations = List.copyOf(nodeOperations);
        }
    }

    /**
     * Runs every point in order with the other processes, after one unreported warm-up run of each lock kind
     * ({@link LockBenchmarkConfig#warmUps}).
     *
     * @param fabricName    the fabric's name for the report
     * @param bench         this process's cluster benchmark
     * @param configs       the points, in run order, the same on every node
     * @param warmupSeconds each warm-up run's length, or 0 for none
     * @param notes         the report's notes, which get a line on the warm-up and, on node 0, each point's pairs by node
     * @param each          receives each aggregate point as its run ends (node 0 only)
     * @return on node 0 the aggregate points, in run order; empty on the other nodes
     * @throws InterruptedException when interrupted while the workers run
     * @throws IOException          when {@code each} cannot write a point
     * @throws RemusException       naming the node that failed or did not come in time
     */
    public static List<LockRun> runAll(String fabricName, ClusterLockBenchmark bench, List<LockBenchmarkConfig> configs,
                                       double warmupSeconds, List<String> notes, LockRunner.RunSink each)
            throws InterruptedException, IOException {
        if (warmupSeconds > 0) {
            for (LockBenchmarkConfig w : LockBenchmarkConfig.warmUps(configs, Duration.ofNanos(Math.round(warmupSeconds * 1e9)))) {
                run(fabricName, bench, w);
            }
            notes.add(LockRunner.warmUpNote(warmupSeconds));
        }
        List<LockRun> runs = new ArrayList<>();
        for (LockBenchmarkConfig config : configs) {
            NodeRun run = run(fabricName, bench, config);
            if (run.aggregate().isPresent()) {
                runs.add(run.aggregate().get());
                notes.add(config.kind().cliName() + ", p-local " + config.pLocal() + ", " + config.keys()
                        + " keys: pairs by node: " + String.join(", ", run.nodeOperations().stream().map(String::valueOf).toList()));
                each.accept(run.aggregate().get());
            }
        }
        return runs;
    }

    /**
     * @param fabricName the fabric's name for the report
     * @param bench      this process's cluster benchmark
     * @param config     what to run: the same on every node, {@code nodes} the cluster's size
     * @return this node's run and, on node 0, the aggregate
     * @throws InterruptedException when interrupted while the workers run
     * @throws RemusException       naming the node that failed or did not come in time
     */
    public static NodeRun run(String fabricName, ClusterLockBenchmark bench, LockBenchmarkConfig config)
            throws InterruptedException {
        int workers = config.threadsPerNode();
        Histogram[] histograms = new Histogram[workers];
        for (int w = 0; w < workers; w++) {
            histograms[w] = LatencyHistograms.create();
        }
        Histogram mine = LatencyHistograms.create();
        List<NodeLockResult> results = bench.run(config, w -> {
            Histogram h = histograms[w];
            return nanos -> LatencyHistograms.record(h, nanos);
        }, () -> {
            for (Histogram h : histograms) {
                mine.add(h);
            }
            return LatencyHistograms.compress(mine);
        });
        NodeLockResult own = results.stream().filter(r -> r.node() == bench.nodeId()).findFirst()
                .orElseThrow(() -> new RemusException("node " + bench.nodeId() + ": its own result is missing"));
        LockRun node = lockRun(fabricName, config, own.result(), own.result().elapsedNanos(), mine);
        if (bench.nodeId() != 0) {
            return new NodeRun(node, Optional.empty(), List.of());
        }
        Histogram merged = LatencyHistograms.create();
        long operations = 0;
        long local = 0;
        long elapsed = 0;
        for (NodeLockResult r : results) {
            merged.add(decode(r));
            operations += r.result().operations();
            local += r.result().localOperations();
            elapsed = Math.max(elapsed, r.result().elapsedNanos());
        }
        return new NodeRun(node, Optional.of(new LockRun(fabricName, config, operations, local, elapsed / 1e9,
                LatencySummary.of(merged))), results.stream().map(r -> r.result().operations()).toList());
    }

    private static LockRun lockRun(String fabricName, LockBenchmarkConfig config, LockBenchmarkResult r, long elapsedNanos,
                                   Histogram latency) {
        return new LockRun(fabricName, config, r.operations(), r.localOperations(), elapsedNanos / 1e9,
                LatencySummary.of(latency));
    }

    private static Histogram decode(NodeLockResult r) {
        try {
            Histogram h = LatencyHistograms.decompress(r.attachment());
            if (h.getTotalCount() != r.result().operations()) {
                throw new RemusException("node " + r.node() + " sent a latency histogram of " + h.getTotalCount()
                        + " samples for " + r.result().operations() + " operations");
            }
            return h;
        } catch (DataFormatException | RuntimeException e) {
            if (e instanceof RemusException re) {
                throw re;
            }
            throw new RemusException("node " + r.node() + " sent a latency histogram that does not decode: " + e, e);
        }
    }
}
