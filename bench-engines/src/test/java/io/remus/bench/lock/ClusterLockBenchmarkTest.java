package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.bench.stats.LatencySink;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several "processes" (threads, each joining one shared SimFabric) run the lock benchmark one node each. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterLockBenchmarkTest {
    private static final Duration PEERS = Duration.ofSeconds(30);

    private static RemusCluster join(SimFabric fabric, int node, int nodes) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            names.append(i == 0 ? "" : ",").append("n").append(i);
        }
        return RemusCluster.builder().fabric(fabric)
                .args("--nodes=" + names, "--node-id=" + node, "--seg-size=4M", "--buffer.size=4K")
                .joinTimeout(PEERS).join();
    }

    private static <T> List<Future<T>> onThreads(ExecutorService pool, int n, IntFunction<Callable<T>> work) {
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(pool.submit(work.apply(i)));
        }
        return futures;
    }

    private static LockBenchmarkConfig config(LockKind kind, int nodes, long seed) {
        return new LockBenchmarkConfig(kind, nodes, 2, 0.5, 9, 4, 4, Duration.ofMillis(200), seed);
    }

    @Test
    void shouldCollectEveryNodesResultOnNodeZeroWhenThreeProcessesRunTwoPoints() throws Exception {
        int n = 3;
        List<LockKind> kinds = List.of(LockKind.ALOCK, LockKind.MCS);
        AtomicLongArray sunk = new AtomicLongArray(n * kinds.size());
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<List<List<NodeLockResult>>>> futures = onThreads(pool, n, node -> () -> {
                try (RemusCluster c = join(fabric, node, n)) {
                    ClusterLockBenchmark bench = new ClusterLockBenchmark(c, PEERS);
                    List<List<NodeLockResult>> perPoint = new ArrayList<>();
                    for (int k = 0; k < kinds.size(); k++) {
                        int slot = node * kinds.size() + k;
                        perPoint.add(bench.run(config(kinds.get(k), n, 7), w -> nanos -> sunk.incrementAndGet(slot),
                                () -> ByteBuffer.allocate(12).putInt(node).putLong(sunk.get(slot)).array()));
                    }
                    return perPoint;
                }
            });
            List<List<List<NodeLockResult>>> all = new ArrayList<>();
            for (Future<List<List<NodeLockResult>>> f : futures) {
                all.add(f.get(90, TimeUnit.SECONDS));
            }
            for (int k = 0; k < kinds.size(); k++) {
                List<NodeLockResult> atZero = all.get(0).get(k);
                assertEquals(n, atZero.size(), "node 0 holds every node's result");
                for (int node = 0; node < n; node++) {
                    NodeLockResult got = atZero.get(node);
                    assertEquals(node, got.node());
                    assertEquals(kinds.get(k), got.result().kind());
                    long ops = got.result().operations();
                    assertTrue(ops > 0, "node " + node + " ran pairs");
                    assertEquals(ops, LongStream.of(got.result().latencyLog2Nanos()).sum());
                    assertEquals(ops, sunk.get(node * kinds.size() + k), "every pair went to the node's sinks");
                    ByteBuffer attached = ByteBuffer.wrap(got.attachment());
                    assertEquals(node, attached.getInt());
                    assertEquals(ops, attached.getLong());
                    if (node > 0) {
                        List<NodeLockResult> own = all.get(node).get(k);
                        assertEquals(1, own.size(), "a node other than 0 gets only its own result");
                        assertEquals(ops, own.getFirst().result().operations());
                        assertArrayEquals(got.attachment(), own.getFirst().attachment());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldNameBothConfigurationsWhenANodeRunsOtherFlags() throws Exception {
        int n = 2;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<Object>> futures = onThreads(pool, n, node -> () -> {
                try (RemusCluster c = join(fabric, node, n)) {
                    return new ClusterLockBenchmark(c, PEERS).run(config(LockKind.SPIN, n, node == 1 ? 99 : 7),
                            w -> LatencySink.NONE, () -> new byte[0]);
                }
            });
            ExecutionException atZero = assertThrows(ExecutionException.class, () -> futures.get(0).get(90, TimeUnit.SECONDS));
            assertInstanceOf(RemusException.class, atZero.getCause());
            assertTrue(atZero.getCause().getMessage().contains("node 1 runs a different configuration"),
                    atZero.getCause().getMessage());
            ExecutionException atOne = assertThrows(ExecutionException.class, () -> futures.get(1).get(90, TimeUnit.SECONDS));
            assertInstanceOf(BadArgumentException.class, atOne.getCause());
            String message = atOne.getCause().getMessage();
            assertTrue(message.startsWith("node 1: "), message);
            assertTrue(message.contains("seed 7") && message.contains("seed 99"), message);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldNameNodeZeroWhenItNeverPublishesTheTable() throws Exception {
        int n = 2;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<Object>> futures = onThreads(pool, n, node -> () -> {
                try (RemusCluster c = join(fabric, node, n)) {
                    if (node == 1) {
                        return new ClusterLockBenchmark(c, Duration.ofMillis(300)).run(config(LockKind.ALOCK, n, 1),
                                w -> LatencySink.NONE, () -> new byte[0]);
                    }
                    return null;
                }
            });
            futures.get(0).get(90, TimeUnit.SECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> futures.get(1).get(90, TimeUnit.SECONDS));
            assertInstanceOf(RemoteTimeoutException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("node 1: node 0 did not publish the lock table of run 1"),
                    e.getCause().getMessage());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseAConfigurationWhoseNodeCountIsNotTheClusters() {
        try (SimFabric fabric = new SimFabric(); RemusCluster c = join(fabric, 0, 1)) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> new ClusterLockBenchmark(c, PEERS)
                    .run(config(LockKind.ALOCK, 2, 1), w -> LatencySink.NONE, () -> new byte[0]));
            assertTrue(e.getMessage().contains("2 nodes but the cluster has 1"), e.getMessage());
        }
    }
}
