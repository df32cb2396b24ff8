package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.FabricNode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RemusCluster} on the simulator: several joins in one JVM share one {@link SimFabric}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemusClusterTest {
    private static final long SLOT = 4096;

    private static <T> List<T> onThreads(int n, java.util.function.IntFunction<Callable<T>> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(work.apply(i)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldWriteReadMeetAndShutDownWhenThreeNodesJoinOneSimFabric() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<Long> seen = onThreads(3, i -> () -> {
                try (RemusCluster c = RemusCluster.builder().fabric(fabric)
                        .args("--nodes=a,b,c", "--node-id", Integer.toString(i), "--seg-size=64K", "--segment.count=2")
                        .joinTimeout(Duration.ofSeconds(30)).join()) {
                    assertEquals(i, c.nodeId());
                    assertEquals(3, c.size());
                    ComputeThread t = c.computeThread();
                    t.write(RemotePtr.offset(t.segmentBase((i + 1) % 3, 1), SLOT), 1000L + i);
                    c.barrier().await();
                    long got = t.read(RemotePtr.offset(t.segmentBase(i, 1), SLOT));
                    c.barrier().await();
                    return got;
                }
            });
            assertEquals(List.of(1002L, 1000L, 1001L), seen);
        }
    }

    @Test
    void shouldNameTheMissingPeersWhenTheyNeverJoin() {
        try (SimFabric fabric = new SimFabric()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> RemusCluster.builder().fabric(fabric)
                        .args("--nodes=a,b,c", "--node-id=0").joinTimeout(Duration.ofMillis(200)).join());
                assertTrue(e.getMessage().contains("node(s) [1, 2] of 3"), e.getMessage());
                assertTrue(e.getMessage().contains("b:18516, c:18517"), e.getMessage());
            }
        }
    }

    @Test
    void shouldNotJoinWhileAMemoryNodeShowsSomeOfItsSegments() {
        try (SimFabric fabric = new SimFabric()) {
            FabricNode peer = fabric.open(1);
            peer.publish(peer.allocate(64 << 10));
            RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> RemusCluster.builder().fabric(fabric)
                    .args("--nodes=a,b", "--node-id=0", "--segment.size=64K", "--segment.count=2")
                    .joinTimeout(Duration.ofMillis(200)).join());
            assertTrue(e.getMessage().contains("node(s) [1] of 2"), e.getMessage());
        }
    }

    @Test
    void shouldNameTheNodeThatNeverArrivesWhenTheClusterBarrierTimesOut() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            CountDownLatch gaveUp = new CountDownLatch(2);
            List<String> messages = onThreads(3, i -> () -> {
                try (RemusCluster c = RemusCluster.builder().fabric(fabric)
                        .args("--nodes=a,b,c", "--node-id", Integer.toString(i), "--seg-size=64K")
                        .joinTimeout(Duration.ofSeconds(3)).shutdownTimeout(Duration.ofSeconds(30)).join()) {
                    if (i == 2) {
                        assertTrue(gaveUp.await(60, TimeUnit.SECONDS), "nodes 0 and 1 never gave up");
                        return null;
                    }
                    try {
                        return assertThrows(RemoteTimeoutException.class, () -> c.barrier().await()).getMessage();
                    } finally {
                        gaveUp.countDown();
                    }
                }
            });
            for (String m : messages.subList(0, 2)) {
                assertTrue(m.contains("not arrived: node 2 (c:18517)"), m);
                assertFalse(m.contains("node 0") || m.contains("node 1"), "names a node that arrived: " + m);
            }
        }
    }

    @Test
    void shouldRunAOneNodeClusterWhenTheSimulatorIsAskedFor() {
        try (RemusCluster c = RemusCluster.join("--fabric=sim", "--seg-size=64K")) {
            assertEquals(0, c.nodeId());
            assertEquals(1, c.size());
            assertEquals("sim", c.fabric().name());
            ComputeThread t = c.computeThread();
            long word = RemotePtr.offset(t.segmentBase(0, 0), SLOT);
            t.write(word, 42);
            c.barrier().await();
            assertEquals(42, t.read(word));
        }
    }

    @Test
    void shouldRefuseSeveralSimNodesWithoutASharedFabric() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=sim", "--node.count=3").join());
        assertTrue(e.getMessage().contains("3 nodes"), e.getMessage());
    }

    @Test
    void shouldNameTheBadArgumentWhenAKeyOrValueIsUnknown() {
        BadArgumentException unknown = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=sim", "--no-such-flag=1").join());
        assertTrue(unknown.getMessage().contains("no-such-flag"), unknown.getMessage());
        BadArgumentException fabric = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=infiniband").join());
        assertTrue(fabric.getMessage().contains("infiniband"), fabric.getMessage());
        BadArgumentException noValue = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=sim", "--rendezvous").join());
        assertTrue(noValue.getMessage().contains("--rendezvous"), noValue.getMessage());
        BadArgumentException bare = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("sim").join());
        assertTrue(bare.getMessage().contains("'sim'"), bare.getMessage());
        BadArgumentException timeout = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=sim", "--join.timeout.ms=soon").join());
        assertTrue(timeout.getMessage().contains("soon"), timeout.getMessage());
    }

    @Test
    void shouldTakeEachKeyFromTheHighestSourceThatGivesIt(@TempDir Path dir) throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), "h1 slots=2\nh2\n");
        Path props = Files.writeString(dir.resolve("remus.properties"),
                "segment.size=16K\nqp.lanes=4\nhostfile=" + hostfile + "\n");
        Map<String, String> env = Map.of("REMUS_SEGMENT_SIZE", "8K", "REMUS_QP_LANES", "3", "REMUS_THREADS_PER_NODE", "2",
                "REMUS_NODES", "x,y", "REMUS_CONFIG", props.toString(), "REMUS_TEST_DEVICE", "rxe0");
        ClusterConfig c = RemusCluster.builder().environment(env).args("--seg-size=32K", "--node-id=2").resolveConfig();
        assertEquals(32 << 10, c.segmentSize());
        assertEquals(4, c.qpLanesPerPeer());
        assertEquals(2, c.threadsPerNode());
        assertEquals(List.of("h1", "h1", "h2"), c.nodes());
        assertEquals(2, c.nodeId());

        ClusterConfig explicit = ClusterConfig.builder().segmentSize(128 << 10).build();
        assertEquals(explicit, RemusCluster.builder().environment(env).args("--seg-size=32K").config(explicit).resolveConfig());
    }

    @Test
    void shouldNameTheRankWhenTheLauncherPutsItOutsideTheSize() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> RemusCluster.builder()
                .environment(Map.of("OMPI_COMM_WORLD_RANK", "5", "OMPI_COMM_WORLD_SIZE", "3")).resolveConfig());
        assertTrue(e.getMessage().contains("5"), e.getMessage());
        BadArgumentException list = assertThrows(BadArgumentException.class, () -> RemusCluster.builder()
                .environment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "n[1-")).resolveConfig());
        assertTrue(list.getMessage().contains("n[1-"), list.getMessage());
    }

    @Test
    void shouldFindPeersThroughTheRendezvousUnderOpenMpi(@TempDir Path dir) throws Exception {
        Path rendezvous = dir.resolve("job");
        try (SimFabric fabric = new SimFabric()) {
            List<List<String>> lists = onThreads(3, i -> () -> {
                Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(i), "OMPI_COMM_WORLD_SIZE", "3");
                try (RemusCluster c = RemusCluster.builder().fabric(fabric).environment(env)
                        .args("--rendezvous", rendezvous.toString(), "--address=127.0.0." + (i + 1), "--port.base=20000",
                                "--seg-size=64K")
                        .joinTimeout(Duration.ofSeconds(30)).join()) {
                    assertEquals(i, c.nodeId());
                    c.barrier().await();
                    return c.config().nodes();
                }
            });
            List<String> expected = List.of("127.0.0.1:20000", "127.0.0.2:20001", "127.0.0.3:20002");
            assertEquals(List.of(expected, expected, expected), lists);
        }
    }

    @Test
    void shouldNameThisNodeWhenPeersNeverAnnounceShutdown() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<RemusCluster> joined = onThreads(2, i -> () -> RemusCluster.builder().fabric(fabric)
                    .args("--nodes=a,b", "--node-id=" + i, "--seg-size=64K").joinTimeout(Duration.ofSeconds(30))
                    .shutdownTimeout(Duration.ofMillis(300)).join());
            RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> joined.get(0).close());
            assertTrue(e.getMessage().startsWith("node 0: shutdown handshake"), e.getMessage());
            assertTrue(e.getMessage().contains("1 of 2"), e.getMessage());
            try {
                joined.get(1).close();
            } catch (RemusException expected) {
                // node 0 freed its memory after its timeout: node 1's announcement to it may fail
            }
        }
    }

    @Test
    void shouldPlaceSlurmTasksOnTheirHostsWithAPortPerTask() {
        Map<String, String> env = Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "4", "SLURM_STEP_NODELIST", "n[1-2]",
                "SLURM_STEP_TASKS_PER_NODE", "2(x2)");
        ClusterConfig c = RemusCluster.builder().environment(env).args("--seg-size=64K").resolveConfig();
        assertEquals(List.of("n1", "n1", "n2", "n2"), c.nodes());
        assertEquals(1, c.nodeId());
        assertEquals("n1:18516", c.nodeAddress(1).toString());
        assertEquals("n2:18518", c.nodeAddress(3).toString());
    }

    @Test
    void shouldFailCloseWithATypedErrorNamingTheDeadPeerAndStillFreeEverything() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<RemusCluster> joined = onThreads(2, i -> () -> RemusCluster.builder().fabric(fabric)
                    .args("--nodes=a,b", "--node-id=" + i, "--seg-size=64K", "--timeout.ms=300")
                    .joinTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ofSeconds(30)).join());
            fabric.stopAnswering(1);
            RemusException e = assertThrows(RemusException.class, () -> joined.get(0).close());
            assertTrue(e.getMessage().contains("node 1") || e.getMessage().contains("node=1"), e.getMessage());
            assertTrue(fabric.publishedRegions(0).isEmpty(), "node 0 closed its memory although the handshake failed");
            fabric.resumeAnswering(1);
            try {
                joined.get(1).close();
            } catch (RemusException expected) {
                // node 0 is gone: node 1's announcement to it fails
            }
        }
    }

    @Test
    void shouldPointToTheSimulatorWhenNoRdmaDeviceExists() {
        org.junit.jupiter.api.Assumptions.assumeTrue(!io.remus.verbs.Device.rdmaStackAvailable()
                || io.remus.verbs.Device.list().isEmpty(), "this host has an RDMA device: join would open it");
        RemusException e = assertThrows(RemusException.class, () -> RemusCluster.builder().args("--node.count=1").join());
        assertTrue(e.getMessage().contains("--fabric=sim"), e.getMessage());
    }

    @Test
    void shouldFindPeersThroughRankZeroUnderPmi() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String root = "tcp://127.0.0.1:" + port;
        try (SimFabric fabric = new SimFabric()) {
            List<List<String>> lists = onThreads(3, i -> () -> {
                Map<String, String> env = Map.of("PMI_RANK", Integer.toString(i), "PMI_SIZE", "3");
                try (RemusCluster c = RemusCluster.builder().fabric(fabric).environment(env)
                        .args("--rendezvous=" + root, "--address=10.1.0." + (i + 1), "--seg-size=64K")
                        .joinTimeout(Duration.ofSeconds(30)).join()) {
                    c.barrier().await();
                    return c.config().nodes();
                }
            });
            List<String> expected = List.of("10.1.0.1:18515", "10.1.0.2:18516", "10.1.0.3:18517");
            assertEquals(List.of(expected, expected, expected), lists);
        }
        BadArgumentException noPort = assertThrows(BadArgumentException.class, () -> RemusCluster.builder()
                .fabric(new SimFabric()).args("--rendezvous=tcp://h", "--address=h").join());
        assertTrue(noPort.getMessage().contains("tcp://h"), noPort.getMessage());
    }
}
