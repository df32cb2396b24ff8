package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.core.RemusCluster;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Three "processes" (threads joining one shared SimFabric) run a lock point; node 0 aggregates. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterLockRunnerTest {
    @Test
    void shouldSumEveryNodesCountsAndMergeItsHistogramOnNodeZero() throws Exception {
        int n = 3;
        LockBenchmarkConfig config = new LockBenchmarkConfig(LockKind.ALOCK, n, 2, 0.7, 12, 4, 4, Duration.ofMillis(300), 3);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<ClusterLockRunner.NodeRun>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int node = i;
                futures.add(pool.submit(() -> {
                    try (RemusCluster c = RemusCluster.builder().fabric(fabric)
                            .args("--nodes=a,b,c", "--node-id=" + node, "--seg-size=2M")
                            .joinTimeout(Duration.ofSeconds(30)).join()) {
                        return ClusterLockRunner.run("sim", new ClusterLockBenchmark(c, Duration.ofSeconds(30)), config);
                    }
                }));
            }
            List<ClusterLockRunner.NodeRun> runs = new ArrayList<>();
            for (Future<ClusterLockRunner.NodeRun> f : futures) {
                runs.add(f.get(90, TimeUnit.SECONDS));
            }
            long operations = 0;
            long local = 0;
            long samples = 0;
            double longest = 0;
            for (int node = 0; node < n; node++) {
                LockRun own = runs.get(node).node();
                assertTrue(own.operations() > 0, "node " + node + " ran pairs");
                assertEquals(own.operations(), own.latency().count(), "node " + node + "'s histogram holds every pair");
                assertEquals(node == 0, runs.get(node).aggregate().isPresent(), "only node 0 aggregates");
                operations += own.operations();
                local += own.localOperations();
                samples += own.latency().count();
                longest = Math.max(longest, own.seconds());
            }
            LockRun all = runs.get(0).aggregate().orElseThrow();
            assertEquals(operations, all.operations());
            assertEquals(runs.stream().map(r -> r.node().operations()).toList(), runs.get(0).nodeOperations());
            assertEquals(local, all.localOperations());
            assertEquals(samples, all.latency().count(), "the merged histogram holds every node's samples");
            assertEquals(longest, all.seconds());
            assertEquals(config, all.config());
            long min = runs.stream().mapToLong(r -> r.node().latency().min()).min().orElseThrow();
            long max = runs.stream().mapToLong(r -> r.node().latency().max()).max().orElseThrow();
            assertEquals(min, all.latency().min());
            assertEquals(max, all.latency().max());
        } finally {
            pool.shutdownNow();
        }
    }
}
