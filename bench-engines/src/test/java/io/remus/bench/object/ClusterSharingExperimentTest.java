package io.remus.bench.object;

import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
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
 * {@link ClusterSharingExperiment}: several "processes" (threads, each joining one shared SimFabric) run every way one
 * node each. Node 0's result sums every node's increments; the engine checks every counter against the increments all
 * nodes applied to it (and throws otherwise), so a run that returns is a checked run.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterSharingExperimentTest {
    private static final Duration PEERS = Duration.ofSeconds(30);

    private static RemusCluster join(SimFabric fabric, int node, int nodes) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            names.append(i == 0 ? "" : ",").append("n").append(i);
        }
        return RemusCluster.builder().fabric(fabric)
                .args("--nodes=" + names, "--node-id=" + node, "--seg-size=16M", "--buffer.size=256K")
                .joinTimeout(PEERS).join();
    }

    private static SharingConfig config(int nodes, long seed) {
        return new SharingConfig(List.of(SharingWay.values()), nodes, 2, 7, 0, 0.5, Duration.ofMillis(200), 16L << 20, seed);
    }

    /** Starts one "process" per node, each running every way; the futures hold per way its result and attachments. */
    private static List<Future<List<ClusterSharingExperiment.NodeRun>>> start(ExecutorService pool, SimFabric fabric, int n,
                                                                             long[] seeds, AtomicLongArray sunk) {
        List<Future<List<ClusterSharingExperiment.NodeRun>>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int node = i;
            futures.add(pool.submit(() -> {
                try (RemusCluster c = join(fabric, node, n)) {
                    ClusterSharingExperiment experiment = new ClusterSharingExperiment(c, PEERS);
                    SharingConfig config = config(n, seeds[node]);
                    List<ClusterSharingExperiment.NodeRun> runs = new ArrayList<>();
                    for (SharingWay way : config.ways()) {
                        int slot = node * SharingWay.values().length + way.ordinal();
                        runs.add(experiment.run(config, way, (w, worker) -> nanos -> sunk.incrementAndGet(slot),
                                () -> ByteBuffer.allocate(12).putInt(node).putLong(sunk.get(slot)).array()));
                    }
                    return runs;
                }
            }));
        }
        return futures;
    }

    @Test
    void shouldSumEveryNodesIncrementsOnNodeZeroWhenThreeProcessesRunEveryWay() throws Exception {
        int n = 3;
        int ways = SharingWay.values().length;
        AtomicLongArray sunk = new AtomicLongArray(n * ways);
        List<List<ClusterSharingExperiment.NodeRun>> all = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            for (Future<List<ClusterSharingExperiment.NodeRun>> f : start(pool, fabric, n, new long[]{7, 7, 7}, sunk)) {
                all.add(f.get(150, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        for (SharingWay way : SharingWay.values()) {
            SharingResult whole = all.get(0).get(way.ordinal()).result();
            assertEquals(way, whole.way());
            long sum = 0;
            for (int node = 0; node < n; node++) {
                SharingResult own = node == 0 ? null : all.get(node).get(way.ordinal()).result();
                long nodeIncrements = sunk.get(node * ways + way.ordinal());
                assertTrue(nodeIncrements > 0, way + ": node " + node + "'s workers incremented");
                if (own != null) {
                    assertEquals(nodeIncrements, own.increments(), way + ": node " + node + " reports its own increments");
                }
                ByteBuffer a = ByteBuffer.wrap(all.get(0).get(way.ordinal()).attachments().get(node));
                assertEquals(node, a.getInt(), "node 0 holds node " + node + "'s attachment");
                assertEquals(nodeIncrements, a.getLong());
                sum += nodeIncrements;
            }
            assertEquals(sum, whole.increments(), way + ": node 0's result is every node's increments");
            assertTrue(whole.localPicks() <= whole.increments());
            if (way == SharingWay.FAA) {
                assertEquals(1.0, whole.postedPerIncrement(Opcode.FETCH_AND_ADD), 1e-9, "faa: one fetch-and-add per increment");
            }
        }
    }

    @Test
    void shouldRefuseARunWhoseConfigurationDiffersFromNodeZerosNamingBoth() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<List<ClusterSharingExperiment.NodeRun>>> futures = start(pool, fabric, 2, new long[]{7, 8},
                    new AtomicLongArray(2 * SharingWay.values().length));
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
