package io.remus.bench.index;

import io.remus.bench.structure.Ycsb;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A child JVM of {@link ClusterIndexKilledRankOnShmTest}: node {@code nodeId} of {@value #NODES} processes running
 * {@link ClusterIndexBenchmark} ({@value #SHARDS} shards of 3 members, YCSB A, {@value #OPS} operations per node).
 * Once every node read its counters, each creates {@code measuring-<nodeId>} in the directory; the test then kills
 * node {@value #VICTIM}, the leader of shard 1 (group {1, 2, 3}). Node 0 prints one {@code REPORT} line of
 * {@code key=value} pairs; every survivor prints {@code DONE} and exits with 0. Arguments:
 * {@code fabric nodeId size basePort directory}.
 */
public final class ClusterIndexKilledRankMain {
    /** Processes. */
    static final int NODES = 4;
    /** The node the test kills: the lowest member, so the leader, of shard 1's group {1, 2, 3}. */
    static final int VICTIM = 1;
    /** Shards: shard s on nodes s..s+2 mod 4. */
    static final int SHARDS = 4;
    /** Measured operations per node. */
    static final long OPS = 4000;
    /** Keys loaded. */
    static final long KEYS = 64;
    /** How long each step and each operation may take. */
    static final Duration PEER_TIMEOUT = Duration.ofSeconds(120);

    private ClusterIndexKilledRankMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        IndexBenchmarkConfig config = new IndexBenchmarkConfig(SHARDS, 3, NODES, Ycsb.A, 0.99, KEYS, 16, OPS, 1024, 1);
        ClusterConfig cc = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 1))
                .segmentSize(ClusterIndexBenchmark.segmentBytes(config, size)).threadsPerNode(16)
                .operationTimeout(Duration.ofSeconds(30)).build();
        System.out.println("PROGRESS joining node=" + nodeId);
        System.out.flush();
        RemusCluster cluster = fabric.builder(cc, Duration.ofSeconds(180)).shutdownTimeout(Duration.ofSeconds(15)).join();
        System.out.println("PROGRESS joined node=" + nodeId);
        System.out.flush();
        String line;
        try {
            ClusterIndexBenchmark bench = new ClusterIndexBenchmark(cluster, PEER_TIMEOUT);
            bench.onMeasuring = () -> {
                try {
                    Files.createFile(dir.resolve("measuring-" + nodeId));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            ClusterIndexBenchmarkResult r = bench.run(config);
            ClusterIndexBenchmarkResult.Failover f = r.failover();
            line = "REPORT node=" + nodeId + " reads=" + r.reads() + " found=" + r.found() + " updates=" + r.updates()
                    + " samples=" + r.allLatency().count() + " takeovers=" + f.takeovers() + " term=" + f.term()
                    + " recovered=" + f.recoveredEntries() + " disruptedNanos=" + f.longestDisruptedNanos()
                    + " retried=" + f.retriedOperations() + " absent=" + f.absentNodes().toString().replace(" ", "");
        } finally {
            try {
                cluster.close();
            } catch (RemusException e) {
                System.out.println("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        System.out.println(line);
        System.out.println("DONE node=" + nodeId);
        System.out.flush();
        System.exit(0);
    }
}
