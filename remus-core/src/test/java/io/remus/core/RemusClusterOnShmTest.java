package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.shm.ShmFabric;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemusCluster} on the shared-memory fabric: joins in one JVM that each open their own
 * {@link ShmFabric} on one directory, as processes of one host do (the multi-process run is
 * {@code io.remus.core.shm.ShmClusterMpirunTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemusClusterOnShmTest {
    private static final long COUNTER = 4096;

    @Test
    void shouldCountEveryNodesFetchAndAddWhenEachWayOfChoosingShmJoinsOneCluster() throws Exception {
        Path dir = Fabrics.freshShmDirectory();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<String>> seen = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int rank = i;
                seen.add(pool.submit(() -> {
                    Map<String, String> env = new java.util.HashMap<>(Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(rank),
                            "OMPI_COMM_WORLD_SIZE", "3"));
                    RemusCluster.Builder b = RemusCluster.builder().args("--seg-size=64K", "--segment.count=2");
                    switch (rank) {
                        case 0 -> b.sharedMemory(dir);
                        case 1 -> env.putAll(Map.of("REMUS_FABRIC", "shm", "REMUS_SHM_DIR", dir.toString()));
                        default -> b.args("--fabric=shm", "--rendezvous=" + dir);
                    }
                    try (RemusCluster c = b.environment(env).joinTimeout(Duration.ofSeconds(30)).join()) {
                        ComputeThread t = c.computeThread();
                        long counter = RemotePtr.offset(t.segmentBase(0, 1), COUNTER);
                        t.fetchAndAdd(counter, 1);
                        c.barrier().await();
                        long value = t.read(counter);
                        c.barrier().await();
                        return c.nodeId() + " " + c.size() + " " + c.fabric().name() + " "
                                + ((ShmFabric) c.fabric()).clusterId() + " " + value;
                    }
                }));
            }
            List<String> lines = new ArrayList<>();
            for (Future<String> f : seen) {
                lines.add(f.get(50, TimeUnit.SECONDS));
            }
            long id;
            try (ShmFabric f = ShmFabric.open(dir)) {
                id = f.clusterId();
            }
            assertEquals(List.of("0 3 shm " + id + " 3", "1 3 shm " + id + " 3", "2 3 shm " + id + " 3"), lines);
        } finally {
            pool.shutdownNow();
            ShmFabric.removeFiles(dir);
        }
    }

    @Test
    void shouldRefuseShmWithoutADirectoryBeforeOpeningAnything() {
        BadArgumentException none = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=shm", "--node.count=1").join());
        assertTrue(none.getMessage().contains("--shm.dir=DIR"), none.getMessage());
        BadArgumentException tcp = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=shm", "--node.count=1", "--rendezvous=tcp://h:1").join());
        assertTrue(tcp.getMessage().contains("tcp://h:1") && tcp.getMessage().contains("--shm.dir"), tcp.getMessage());
        BadArgumentException kind = assertThrows(BadArgumentException.class,
                () -> RemusCluster.builder().args("--fabric=rdma", "--node.count=1").join());
        assertTrue(kind.getMessage().contains("'rdma' is not verbs, sim or shm"), kind.getMessage());
        assertThrows(NullPointerException.class, () -> RemusCluster.builder().sharedMemory(null));
    }
}
