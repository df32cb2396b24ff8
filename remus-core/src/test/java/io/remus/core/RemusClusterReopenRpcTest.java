package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemusException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemusCluster#reopenRpcEndpoint} and the rings the cluster publishes per incarnation ({@link ClusterRings}),
 * on the simulator (one shared {@link SimFabric}, each node's process a thread): node 1's process dies
 * ({@link SimFabric#crash}) and joins again as a new incarnation with new memory, which opens its endpoint with
 * {@code reopenRpcEndpoint}. Node 0's call to it fails typed while its queue pair still reaches the dead incarnation,
 * then, once its endpoint looked the new incarnation's rings up by name, reaches the new process; the restarted
 * node calls node 0 in turn and gets its answer. Node 0 is the cluster's only memory node, so the name directory
 * and every block of rings outlive node 1's restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemusClusterReopenRpcTest {
    private static final int PLUS = 7;
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

    private String memoryNodes = "0";

    private RemusCluster join(int nodeId) {
        return RemusCluster.builder().fabric(sim).args("--node.count=2", "--node-id=" + nodeId, "--seg-size=256K",
                        "--segment.count=2", "--memory.nodes=" + memoryNodes, "--compute.nodes=0-1")
                .joinTimeout(Duration.ofSeconds(20)).shutdownTimeout(Duration.ofSeconds(2)).join();
    }

    @Test
    void shouldFailTypedAndThenReachTheNewIncarnationWhenAPeerReopensItsEndpointAfterARestart() throws Exception {
        run(false);
    }

    /**
     * Both nodes are memory nodes and node 0's compute thread allocated a block before it opened its endpoint, so its
     * allocator's next node is node 1: the block of node 0's rings must still be in memory that outlives node 1's
     * restart, or the restarted node 1 reads its own new memory for them.
     */
    @Test
    void shouldFindASurvivorsRingsWhenTheRestartedPeerIsAMemoryNodeTheSurvivorAllocatedOnBefore() throws Exception {
        memoryNodes = "0-1";
        run(true);
    }

    private void run(boolean allocateFirst) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            run(pool, allocateFirst);
        } finally {
            pool.shutdownNow();
        }
    }

    private void run(ExecutorService pool, boolean allocateFirst) throws Exception {
        CountDownLatch firstCalled = new CountDownLatch(1);
        CountDownLatch restarted = new CountDownLatch(1);
        CountDownLatch secondCalled = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Long> newIncarnation = new AtomicReference<>();
        CompletableFuture<RemusCluster> first = CompletableFuture.supplyAsync(() -> {
            RemusCluster c = join(1);
            RpcEndpoint ep = c.openRpcEndpoint(2);
            ep.registerLong(PLUS, x -> x + 1);
            while (firstCalled.getCount() > 0) {
                ep.serve(Duration.ofMillis(2));
            }
            return c;
        }, pool);
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> {
            try {
                assertTrue(restarted.await(60, TimeUnit.SECONDS));
                RemusCluster c = join(1);
                try {
                    newIncarnation.set(c.node().fabricNode().incarnation());
                    RpcEndpoint ep = c.reopenRpcEndpoint(2);
                    ep.registerLong(PLUS, x -> x + 2);
                    BadArgumentException twice = assertThrows(BadArgumentException.class, () -> c.reopenRpcEndpoint(2));
                    assertTrue(twice.getMessage().contains("node 1 already opened its RPC endpoint"), twice.getMessage());
                    while (secondCalled.getCount() > 0) {
                        ep.serve(Duration.ofMillis(2));
                    }
                    long fromZero = ep.callLong(0, PLUS, 500, WAIT);
                    done.set(true);
                    return "answer=" + fromZero + " relearned=" + ep.relearnedPeers();
                } finally {
                    closeQuietly(c);
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, pool);

        RemusCluster zero = join(0);
        try {
            if (allocateFirst) {
                zero.computeThread().allocator().allocate(3 * Long.BYTES);
            }
            RpcEndpoint ep = zero.openRpcEndpoint(2);
            ep.registerLong(PLUS, x -> x + 100);
            assertEquals(11, ep.callLong(1, PLUS, 10, WAIT), "node 1's first incarnation answers");
            long oldIncarnation = ep.peerIncarnation(1);
            firstCalled.countDown();
            first.get(60, TimeUnit.SECONDS);
            sim.crash(1);
            restarted.countDown();

            RemusException lost = assertThrows(RemusException.class, () -> ep.callLong(1, PLUS, 20, Duration.ofSeconds(5)),
                    "a call while the queue pair still reaches the dead incarnation fails typed");
            assertTrue(lost instanceof PeerUnreachableException || lost instanceof PeerRestartedException,
                    "the first call fails as unreachable or restarted: " + lost);
            long failed = 1;
            long deadline = System.nanoTime() + WAIT.toNanos();
            long answer = -1;
            while (answer < 0) {
                assertTrue(System.nanoTime() - deadline < 0, "node 1's new incarnation never answered; last: " + lost);
                try {
                    answer = ep.callLong(1, PLUS, 20, Duration.ofSeconds(5));
                } catch (RemusException e) {
                    lost = e;
                    failed++;
                }
            }
            secondCalled.countDown();
            assertEquals(22, answer, "node 1's second incarnation answers, from its new rings");
            assertEquals(1, ep.relearnedPeers(), "node 0 looked node 1's new rings up once (after " + failed + " failed calls)");
            assertEquals(newIncarnation.get().longValue(), ep.peerIncarnation(1), "node 0 reaches the new incarnation");
            assertNotEquals(oldIncarnation, ep.peerIncarnation(1));
            while (!done.get()) {
                ep.serve(Duration.ofMillis(2));
                assertTrue(System.nanoTime() - deadline < 0, "the restarted node's call to node 0 was not served");
            }
            String got = second.get(60, TimeUnit.SECONDS);
            System.out.println("node 0: " + failed + " failed calls, the last " + lost.getClass().getSimpleName()
                    + "; restarted node 1: " + got);
            assertTrue(got.startsWith("answer=600 "), "the restarted caller reaches node 0 through the rings it looked "
                    + "up when it connected: " + got);
        } finally {
            closeQuietly(zero);
        }
    }

    private static void closeQuietly(RemusCluster c) {
        try {
            c.close();
        } catch (RemusException e) {
            // the other node may leave first, or be dead; leaving is not what this test checks
        }
    }
}
