package io.remus.bench.object;

import io.remus.bench.structure.Ycsb;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClusterKvExperiment}: several "processes" (threads, each joining one shared SimFabric) run every way under
 * YCSB A, one node each, with 64-byte values. Every read was checked by its worker (a failed check fails the run);
 * node 0's result sums every node's operations.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterKvExperimentTest {
    private static final Duration PEERS = Duration.ofSeconds(30);
    private static final int WAYS = KvWay.values().length;

    private static RemusCluster join(SimFabric fabric, int node, int nodes) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            names.append(i == 0 ? "" : ",").append("n").append(i);
        }
        return RemusCluster.builder().fabric(fabric)
                .args("--nodes=" + names, "--node-id=" + node, "--seg-size=16M", "--buffer.size=256K")
                .joinTimeout(PEERS).join();
    }

    private static KvConfig config(int nodes, long seed) {
        return new KvConfig(List.of(KvWay.values()), List.of(Ycsb.A), nodes, 2, 24, 0.99, 0.5, Duration.ofMillis(200),
                16L << 20, seed, 64);
    }

    /** Starts one "process" per node running every way; each future holds per way its run. */
    private static List<Future<List<ClusterKvExperiment.NodeRun>>> start(ExecutorService pool, SimFabric fabric, int n,
                                                                        long[] seeds, AtomicLongArray sunk) {
        List<Future<List<ClusterKvExperiment.NodeRun>>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int node = i;
            futures.add(pool.submit(() -> {
                try (RemusCluster c = join(fabric, node, n)) {
                    ClusterKvExperiment experiment = new ClusterKvExperiment(c, PEERS);
                    KvConfig config = config(n, seeds[node]);
                    List<ClusterKvExperiment.NodeRun> runs = new ArrayList<>();
                    for (KvWay way : config.ways()) {
                        int slot = node * WAYS + way.ordinal();
                        runs.add(experiment.run(config, Ycsb.A, way, (w, y, worker, update) -> nanos -> sunk.incrementAndGet(slot),
                                () -> ByteBuffer.allocate(12).putInt(node).putLong(sunk.get(slot)).array()));
                    }
                    return runs;
                }
            }));
        }
        return futures;
    }

    @Test
    void shouldSumEveryNodesOperationsOnNodeZeroWhenThreeProcessesRunEveryWay() throws Exception {
        int n = 3;
        AtomicLongArray sunk = new AtomicLongArray(n * WAYS);
        List<List<ClusterKvExperiment.NodeRun>> all = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            for (Future<List<ClusterKvExperiment.NodeRun>> f : start(pool, fabric, n, new long[]{7, 7, 7}, sunk)) {
                all.add(f.get(150, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        for (KvWay way : KvWay.values()) {
            KvResult whole = all.get(0).get(way.ordinal()).result();
            assertEquals(way, whole.way());
            long sum = 0;
            for (int node = 0; node < n; node++) {
                long ops = sunk.get(node * WAYS + way.ordinal());
                assertTrue(ops > 0, way + ": node " + node + "'s workers ran");
                if (node > 0) {
                    KvResult own = all.get(node).get(way.ordinal()).result();
                    assertEquals(ops, own.reads() + own.updates(), way + ": node " + node + " reports its own operations");
                }
                ByteBuffer a = ByteBuffer.wrap(all.get(0).get(way.ordinal()).attachments().get(node));
                assertEquals(node, a.getInt(), "node 0 holds node " + node + "'s attachment");
                assertEquals(ops, a.getLong());
                sum += ops;
            }
            assertEquals(sum, whole.reads() + whole.updates(), way + ": node 0's result is every node's operations");
            assertTrue(whole.updates() > 0 && whole.reads() > 0, way + ": YCSB A reads and updates");
        }
    }

    @Test
    void shouldRefuseARunWhoseConfigurationDiffersFromNodeZerosNamingBoth() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<List<ClusterKvExperiment.NodeRun>>> futures = start(pool, fabric, 2, new long[]{7, 8},
                    new AtomicLongArray(2 * WAYS));
            ExecutionException atOne = assertThrows(ExecutionException.class, () -> futures.get(1).get(90, TimeUnit.SECONDS));
            BadArgumentException bad = assertInstanceOf(BadArgumentException.class, atOne.getCause());
            assertTrue(bad.getMessage().contains("seed 7") && bad.getMessage().contains("seed 8"), bad.getMessage());
            ExecutionException atZero = assertThrows(ExecutionException.class, () -> futures.get(0).get(90, TimeUnit.SECONDS));
            assertTrue(atZero.getCause().getMessage().contains("node 1"), atZero.getCause().getMessage());
        } finally {
            pool.shutdownNow();
        }
    }
}
