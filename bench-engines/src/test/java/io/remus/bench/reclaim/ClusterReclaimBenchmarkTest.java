package io.remus.bench.reclaim;

import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Three "processes" (threads, each joining one shared SimFabric) run the reclamation benchmark one node each. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterReclaimBenchmarkTest {
    private static final Duration PEERS = Duration.ofSeconds(30);

    private static RemusCluster join(SimFabric fabric, int node) {
        return RemusCluster.builder().fabric(fabric).args("--nodes=a,b,c", "--node-id=" + node, "--seg-size=16M")
                .joinTimeout(PEERS).join();
    }

    private static List<List<List<ReclaimBenchmarkResult>>> onThreeNodes(List<ReclaimBenchmarkConfig> configs)
            throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<List<List<ReclaimBenchmarkResult>>>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int node = i;
                futures.add(pool.submit(() -> {
                    try (RemusCluster c = join(fabric, node)) {
                        ClusterReclaimBenchmark bench = new ClusterReclaimBenchmark(c, PEERS);
                        List<List<ReclaimBenchmarkResult>> perRun = new ArrayList<>();
                        for (ReclaimBenchmarkConfig config : configs) {
                            perRun.add(bench.run(config));
                        }
                        return perRun;
                    }
                }));
            }
            List<List<List<ReclaimBenchmarkResult>>> all = new ArrayList<>();
            for (Future<List<List<ReclaimBenchmarkResult>>> f : futures) {
                all.add(f.get(150, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private static ReclaimBenchmarkConfig config(ReclaimerKind kind, boolean stall) {
        ReclaimBenchmarkConfig c = ReclaimBenchmarkConfig.of(kind, 3, 2, Duration.ofMillis(400), stall);
        return new ReclaimBenchmarkConfig(c.reclaimer(), c.nodes(), c.threadsPerNode(), c.duration(), 0, c.stall(),
                c.slots(), c.readPercent(), c.epoch(), 50, c.sampleEvery(), 16L << 20, c.seed());
    }

    @Test
    void shouldAddUpEveryNodesCountsOnNodeZeroWhenThreeProcessesChurnOneArray() throws Exception {
        List<ReclaimBenchmarkConfig> configs = List.of(config(ReclaimerKind.EPOCH, false),
                config(ReclaimerKind.BARRIER, false), config(ReclaimerKind.BARRIER, true),
                config(ReclaimerKind.NEVER, false).withOpsPerThread(300));
        List<List<List<ReclaimBenchmarkResult>>> all = onThreeNodes(configs);
        for (int k = 0; k < configs.size(); k++) {
            List<ReclaimBenchmarkResult> atZero = all.get(0).get(k);
            assertEquals(3, atZero.size(), "node 0 holds every node's result");
            for (int node = 1; node < 3; node++) {
                List<ReclaimBenchmarkResult> own = all.get(node).get(k);
                assertEquals(1, own.size(), "a node other than 0 gets only its own result");
                assertEquals(own.getFirst().ops(), atZero.get(node).ops(), "node 0 got node " + node + "'s count");
                assertEquals(own.getFirst().samples(), atZero.get(node).samples(), "node 0 got node " + node + "'s samples");
            }
            ReclaimBenchmarkResult sum = ClusterReclaimBenchmark.aggregate(atZero);
            String label = configs.get(k).reclaimer() + (configs.get(k).stall() ? "+stall" : "");
            long ops = 0, retired = 0, last = 0, maxPeak = 0, sumPeaks = 0, reads = 0;
            long[] posted = new long[Opcode.values().length];
            for (ReclaimBenchmarkResult r : atZero) {
                assertTrue(r.ops() > 0, label + ": every node churned");
                assertEquals(0, r.violations(), label + ": " + r.firstViolation());
                ops += r.ops();
                reads += r.reads();
                retired += r.retiredBytes();
                last += r.finalUnreclaimedBytes();
                maxPeak = Math.max(maxPeak, r.peakUnreclaimedBytes());
                sumPeaks += r.peakUnreclaimedBytes();
                for (int o = 0; o < posted.length; o++) {
                    posted[o] += r.postedOperations()[o];
                }
            }
            assertEquals(ops, sum.ops(), label);
            assertEquals(reads, sum.reads(), label);
            assertEquals(retired, sum.retiredBytes(), label);
            assertEquals(last, sum.finalUnreclaimedBytes(), label);
            assertEquals(posted.length, sum.postedOperations().length);
            for (int o = 0; o < posted.length; o++) {
                assertEquals(posted[o], sum.postedOperations()[o], label + ": " + Opcode.values()[o]);
            }
            assertTrue(sum.peakUnreclaimedBytes() >= maxPeak && sum.peakUnreclaimedBytes() <= sumPeaks,
                    label + ": peak " + sum.peakUnreclaimedBytes() + " within [" + maxPeak + ", " + sumPeaks + "]");
            assertTrue(sum.postedOperations()[Opcode.READ.ordinal()] > 0, label + ": the nodes read each other's memory");
        }
        assertEquals(3 * 2 * 300, ClusterReclaimBenchmark.aggregate(all.get(0).get(3)).ops(),
                "an operation-count run does every worker's count on every node");
    }

    @Test
    void shouldSumTheNodesSamplesPerPeriodWhenAggregating() {
        ReclaimBenchmarkConfig c = config(ReclaimerKind.EPOCH, false);
        long[] none = new long[Opcode.values().length];
        ReclaimBenchmarkResult a = new ReclaimBenchmarkResult(c, 10, 100, 5, 5, 0, 0, null, 640, 300, 100, none, 0,
                List.of(new ReclaimBenchmarkResult.Sample(0, 0, 0), new ReclaimBenchmarkResult.Sample(21, 300, 5),
                        new ReclaimBenchmarkResult.Sample(40, 100, 10)));
        ReclaimBenchmarkResult b = new ReclaimBenchmarkResult(c, 4, 200, 2, 2, 0, 0, null, 128, 200, 50, none, 0,
                List.of(new ReclaimBenchmarkResult.Sample(1, 0, 0), new ReclaimBenchmarkResult.Sample(19, 200, 4)));
        ReclaimBenchmarkResult sum = ClusterReclaimBenchmark.aggregate(List.of(a, b));
        assertEquals(List.of(new ReclaimBenchmarkResult.Sample(0, 0, 0), new ReclaimBenchmarkResult.Sample(20, 500, 9),
                new ReclaimBenchmarkResult.Sample(40, 300, 14)), sum.samples());
        assertEquals(500, sum.peakUnreclaimedBytes());
        assertEquals(150, sum.finalUnreclaimedBytes());
        assertEquals(200, sum.elapsedNanos());
        assertEquals(14, sum.ops());
    }

    @Test
    void shouldRefuseAConfigurationWhoseNodeCountIsNotTheClusters() {
        try (SimFabric fabric = new SimFabric();
             RemusCluster c = RemusCluster.builder().fabric(fabric).args("--nodes=a", "--node-id=0", "--seg-size=16M")
                     .joinTimeout(PEERS).join()) {
            BadArgumentException e = assertThrows(BadArgumentException.class,
                    () -> new ClusterReclaimBenchmark(c, PEERS).run(config(ReclaimerKind.EPOCH, false)));
            assertTrue(e.getMessage().contains("3 nodes but the cluster has 1"), e.getMessage());
        }
        assertThrows(BadArgumentException.class, () -> ClusterReclaimBenchmark.aggregate(List.of()));
    }
}
