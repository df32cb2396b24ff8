package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The README's program of the index service with one process per node ({@link RemusCluster#openRpcEndpoint}, one
 * shard replicated on nodes 0..2, node 0 leading, every node a client): three joins in one JVM, one per thread, on
 * one shared {@link SimFabric}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IndexClusterExampleTest {
    private static String node(RemusCluster cluster, AtomicInteger done) {
        RpcEndpoint endpoint = cluster.openRpcEndpoint(8);
        IndexShards shards = IndexShards.of("kv", ReplicaGroup.of(0, 1, 2));
        try (ComputeThread t = cluster.newComputeThread(Plane.REPLICATION);
             IndexShardServer server = IndexShardServer.create(cluster.node(), t, endpoint, shards, 0, 256,
                     Duration.ofSeconds(5))) {
            cluster.barrier().await();
            if (cluster.nodeId() == 0) {
                server.lead(1, Duration.ofSeconds(30));
            }
            cluster.barrier().await();
            RemusIndex index = new RemusIndex(endpoint, shards, 1 + cluster.nodeId(), Duration.ofSeconds(10));
            byte[] key = ("user" + cluster.nodeId()).getBytes(StandardCharsets.UTF_8);
            boolean replaced = index.put(key, "alice".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(30));
            byte[] value = index.get(key, Duration.ofSeconds(30));
            done.incrementAndGet();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (done.get() < cluster.size() && System.nanoTime() < deadline) {
                server.runOnce(Duration.ofMillis(1));
            }
            server.runOnce(Duration.ZERO);
            cluster.barrier().await();
            return cluster.nodeId() + " " + replaced + " " + new String(value, StandardCharsets.UTF_8) + " "
                    + server.isLeader() + " " + server.machine().size();
        }
    }

    @Test
    void shouldPutAndGetThroughTheLeaderWhenThreeProcessesRunTheReadmeProgram() throws Exception {
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (SimFabric fabric = new SimFabric()) {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String id = Integer.toString(i);
                futures.add(pool.submit(() -> {
                    try (RemusCluster cluster = RemusCluster.builder().fabric(fabric)
                            .args("--node.count=3", "--node-id=" + id, "--seg-size=4M")
                            .joinTimeout(Duration.ofSeconds(30)).join()) {
                        return node(cluster, done);
                    }
                }));
            }
            List<String> lines = new ArrayList<>();
            for (Future<String> f : futures) {
                lines.add(f.get(100, TimeUnit.SECONDS));
            }
            assertEquals(List.of("0 false alice true 3", "1 false alice false 3", "2 false alice false 3"), lines);
        } finally {
            pool.shutdownNow();
        }
    }
}
