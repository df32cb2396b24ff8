package io.remus.memcached;

import io.remus.core.RemusCluster;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DelegatedCache#join}: the nodes of one {@link RemusCluster} (threads of this JVM on one simulator fabric,
 * each joined as a process would be) build one store, each holding its shards' trustees and finding the others'
 * in the cluster's name directory; a node whose shards never come is named.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelegatedCacheClusterTest {
    private static final LongSupplier CLOCK = () -> System.currentTimeMillis() / 1000;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static RemusCluster join(SimFabric fabric, String nodes, int i) {
        return RemusCluster.builder().fabric(fabric).args("--nodes=" + nodes, "--node-id", Integer.toString(i),
                "--seg-size=16M").joinTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ofSeconds(30)).join();
    }

    private static <T> List<T> onThreads(int n, IntFunction<Callable<T>> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(body.apply(i)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(100, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldSeeEveryNodesItemsFromEveryNodeWhenThreeClusterNodesJoinOneStore() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<Integer> found = onThreads(3, i -> () -> {
                try (RemusCluster c = join(fabric, "a,b,c", i)) {
                    int seen = 0;
                    try (DelegatedCache cache = DelegatedCache.join(c, 5, 6, CLOCK, Duration.ofSeconds(30))) {
                        try (MemcachedEngine engine = cache.openEngine(i)) {
                            assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes("key" + i), i, 0,
                                    bytes("from node " + i), 0));
                            if (i == 0) {
                                assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes("counter"), 0, 0,
                                        bytes("0"), 0));
                            }
                            c.barrier().await();
                            assertEquals(ArithmeticResult.Status.OK, engine.arithmetic(bytes("counter"), true, 1).status());
                            c.barrier().await();
                            for (int k = 0; k < 3; k++) {
                                Item item = engine.get(bytes("key" + k));
                                assertArrayEquals(bytes("from node " + k), item.value(), "node " + i + " reads key" + k);
                                assertEquals(k, item.flags());
                                seen++;
                            }
                            assertArrayEquals(bytes("3"), engine.get(bytes("counter")).value(),
                                    "every node's incr went to the one shard of counter");
                        }
                        c.barrier().await();
                    }
                    return seen;
                }
            });
            assertEquals(List.of(3, 3, 3), found);
        }
    }

    @Test
    void shouldNameTheNodeWhoseShardsWereNeverPublished() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            CountDownLatch gaveUp = new CountDownLatch(1);
            List<String> messages = onThreads(2, i -> () -> {
                try (RemusCluster c = join(fabric, "a,b", i)) {
                    if (i == 1) {
                        assertTrue(gaveUp.await(60, TimeUnit.SECONDS), "node 0 never gave up");
                        return null;
                    }
                    try {
                        return assertThrows(RemoteTimeoutException.class,
                                () -> DelegatedCache.join(c, 4, 4, CLOCK, Duration.ofMillis(500))).getMessage();
                    } finally {
                        gaveUp.countDown();
                    }
                }
            });
            String message = messages.getFirst();
            assertTrue(message.contains("node(s) [1] of 2 did not publish their memcached shards"), message);
        }
    }
}
