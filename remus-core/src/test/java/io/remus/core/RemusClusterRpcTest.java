package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemusCluster#openRpcEndpoint}: joins in one JVM, one per thread as processes of one cluster, each
 * open their node's endpoint and call every compute node's. On the simulator here (one shared
 * {@link SimFabric}); {@link RemusClusterRpcOnShmTest} runs the same on the shared-memory fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemusClusterRpcTest {
    private static final int PLUS_NODE = 7;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private SimFabric sim;

    @BeforeEach
    void openFabric() {
        sim = new SimFabric();
    }

    @AfterEach
    void closeFabric() {
        sim.close();
    }

    /** {@return the builder of node {@code nodeId}'s join, before its arguments} */
    RemusCluster.Builder builder(int nodeId) {
        return RemusCluster.builder().fabric(sim);
    }

    private RemusCluster join(int nodeId, int size, String... more) {
        List<String> args = new ArrayList<>(List.of("--node.count=" + size, "--node-id=" + nodeId, "--seg-size=256K",
                "--segment.count=2"));
        args.addAll(List.of(more));
        return builder(nodeId).args(args.toArray(String[]::new)).joinTimeout(Duration.ofSeconds(20)).join();
    }

    private static <T> List<T> onThreads(int n, IntFunction<Callable<T>> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(work.apply(i)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(90, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Calls every node in {@code peers} {@code rounds} times, then serves until all {@code callers} are done. */
    private static long callEveryPeer(RpcEndpoint ep, List<Integer> peers, int rounds, AtomicInteger done, int callers) {
        long sum = 0;
        for (int r = 0; r < rounds; r++) {
            for (int p : peers) {
                long got = ep.callLong(p, PLUS_NODE, 1000L * r, WAIT);
                assertEquals(1000L * r + 100 * p, got);
                sum += got;
            }
        }
        done.incrementAndGet();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (done.get() < callers && System.nanoTime() < deadline) {
            ep.serve(Duration.ofMillis(2));
        }
        return sum;
    }

    @Test
    void shouldCallEveryNodeIncludingItselfWhenThreeNodesOpenTheirEndpoints() throws Exception {
        AtomicInteger done = new AtomicInteger();
        List<String> seen = onThreads(3, i -> () -> {
            try (RemusCluster c = join(i, 3)) {
                RpcEndpoint ep = c.openRpcEndpoint(4);
                ep.registerLong(PLUS_NODE, x -> x + 100L * c.nodeId());
                long sum = callEveryPeer(ep, List.of(0, 1, 2), 5, done, 3);
                c.barrier().await();
                return c.nodeId() + " " + ep.nodeId() + " " + ep.ringSlots() + " " + sum + " " + ep.requestsServed();
            }
        });
        long sum = 3 * (0 + 1000 + 2000 + 3000 + 4000) + 5 * (0 + 100 + 200);
        assertEquals(List.of("0 0 4 " + sum + " 15", "1 1 4 " + sum + " 15", "2 2 4 " + sum + " 15"), seen);
    }

    @Test
    void shouldConnectOnlyComputeNodesAndRefuseTheMemoryOnlyNode() throws Exception {
        AtomicInteger done = new AtomicInteger();
        List<String> seen = onThreads(3, i -> () -> {
            try (RemusCluster c = join(i, 3, "--compute.nodes=0-1", "--memory.nodes=0-2")) {
                if (i == 2) {
                    BadArgumentException e = assertThrows(BadArgumentException.class, () -> c.openRpcEndpoint(4));
                    assertTrue(e.getMessage().contains("node 2 is a memory-only node"), e.getMessage());
                    return "memory-only";
                }
                RpcEndpoint ep = c.openRpcEndpoint(2);
                ep.registerLong(PLUS_NODE, x -> x + 100L * c.nodeId());
                long sum = callEveryPeer(ep, List.of(0, 1), 3, done, 2);
                BadArgumentException unconnected = assertThrows(BadArgumentException.class,
                        () -> ep.callLong(2, PLUS_NODE, 0, WAIT));
                assertTrue(unconnected.getMessage().contains("2"), unconnected.getMessage());
                c.barrier().await();
                return c.nodeId() + " " + sum;
            }
        });
        assertEquals(List.of("0 " + (2 * 3000 + 3 * 100), "1 " + (2 * 3000 + 3 * 100), "memory-only"), seen);
    }

    @Test
    void shouldRefuseBadRingSlotsAndASecondOpenWithTypedErrors() {
        try (RemusCluster c = join(0, 1)) {
            BadArgumentException zero = assertThrows(BadArgumentException.class, () -> c.openRpcEndpoint(0));
            assertTrue(zero.getMessage().contains("got 0"), zero.getMessage());
            int tooMany = RpcEndpoint.MAX_RING_SLOTS + 1;
            BadArgumentException big = assertThrows(BadArgumentException.class, () -> c.openRpcEndpoint(tooMany));
            assertTrue(big.getMessage().contains("got " + tooMany), big.getMessage());
            RpcEndpoint ep = c.openRpcEndpoint(1);
            ep.registerLong(PLUS_NODE, x -> x + 1);
            assertEquals(42, ep.callLong(0, PLUS_NODE, 41, WAIT));
            BadArgumentException twice = assertThrows(BadArgumentException.class, () -> c.openRpcEndpoint(1));
            assertTrue(twice.getMessage().contains("node 0 already opened its RPC endpoint"), twice.getMessage());
        }
    }

    @Test
    void shouldNameTheNodeThatNeverOpensItsEndpointWhenTheJoinTimeoutRunsOut() throws Exception {
        List<String> seen = onThreads(2, i -> () -> {
            RemusCluster c = builder(i).args("--node.count=2", "--node-id=" + i, "--seg-size=256K", "--segment.count=2")
                    .joinTimeout(Duration.ofSeconds(2)).shutdownTimeout(Duration.ofSeconds(5)).join();
            try {
                if (i == 1) {
                    return "idle";
                }
                RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> c.openRpcEndpoint(2));
                return e.getMessage().contains("node 1") ? "named" : e.getMessage();
            } finally {
                try {
                    c.close();
                } catch (RemoteTimeoutException ignored) {
                    // the peer may leave first; its shutdown is not what this test checks
                }
            }
        });
        assertEquals(List.of("named", "idle"), seen);
    }
}
