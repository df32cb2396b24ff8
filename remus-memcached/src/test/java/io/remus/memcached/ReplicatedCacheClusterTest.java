package io.remus.memcached;

import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.replicate.ReplicaGroup;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReplicatedCache#join}: the nodes of one {@link RemusCluster} (threads of this JVM on one simulator fabric,
 * each joined as a process would be) build one replicated store, each hosting its members of the shards' groups
 * and reaching the others' through their front doors; every node's commands reach every shard, the crash of a
 * node that leads every shard loses no acknowledged command and applies none twice, and bad arguments are named.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ReplicatedCacheClusterTest {
    private static final LongSupplier CLOCK = () -> System.currentTimeMillis() / 1000;
    private static final ReplicatedCache.Timing TIMING = new ReplicatedCache.Timing(Duration.ofMillis(300),
            Duration.ofSeconds(1), 5000, Duration.ofNanos(100_000), Duration.ofSeconds(3), Duration.ofSeconds(60));

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static RemusCluster join(SimFabric fabric, String nodes, int i) {
        return RemusCluster.builder().fabric(fabric).args("--nodes=" + nodes, "--node-id", Integer.toString(i),
                "--seg-size=32M").joinTimeout(Duration.ofSeconds(60)).shutdownTimeout(Duration.ofSeconds(10)).join();
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
                results.add(f.get(200, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldPlaceEachShardOnThreeConsecutiveNodesOnAPlaneOfItsOwn() {
        assertEquals(List.of(ReplicaGroup.of(0, 1, 2).onPlane(1).toString(), ReplicaGroup.of(0, 1, 2).onPlane(2).toString()),
                ReplicatedCache.groups(2, 3).stream().map(ReplicaGroup::toString).toList());
        ReplicaGroup last = ReplicatedCache.groupOf(4, 5);
        assertEquals(List.of(0, 1, 4), List.of(last.member(0), last.member(1), last.member(2)));
        assertEquals(5, last.plane());
        assertTrue(assertThrows(BadArgumentException.class, () -> ReplicatedCache.groups(16, 3)).getMessage()
                .contains("got 16"));
        assertTrue(assertThrows(BadArgumentException.class, () -> ReplicatedCache.groups(2, 2)).getMessage()
                .contains("got 2"));
    }

    @Test
    void shouldSeeEveryNodesItemsFromEveryNodeWhenFourClusterNodesJoinOneStore() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<Integer> found = onThreads(4, i -> () -> {
                try (RemusCluster c = join(fabric, "a,b,c,d", i)) {
                    int seen = 0;
                    try (ReplicatedCache cache = ReplicatedCache.join(c, 4, 8, CLOCK, Duration.ofSeconds(60), TIMING)) {
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
                            for (int k = 0; k < 4; k++) {
                                Item item = engine.get(bytes("key" + k));
                                assertArrayEquals(bytes("from node " + k), item.value(), "node " + i + " reads key" + k);
                                assertEquals(k, item.flags());
                                seen++;
                            }
                            assertArrayEquals(bytes("4"), engine.get(bytes("counter")).value(),
                                    "every node's incr went to the one shard of counter, once");
                            byte[] big = new byte[ReplicatedCache.MAX_ITEM_BYTES];
                            big[0] = (byte) i;
                            assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes("big" + i), 0, 0, big, 0));
                            assertArrayEquals(big, engine.get(bytes("big" + i)).value());
                            assertThrows(BadArgumentException.class, () -> engine.store(StoreMode.SET, bytes("big"),
                                    0, 0, new byte[ReplicatedCache.MAX_ITEM_BYTES + 251], 0));
                        }
                        c.barrier().await();
                    }
                    return seen;
                }
            });
            assertEquals(List.of(4, 4, 4, 4), found);
        }
    }

    /**
     * Node 0 leads both shards (each group's lowest live member); clients on nodes 1 and 2 set keys and incr one
     * counter each before and after node 0's process dies (its member threads stop where they are, its node stops
     * answering). Every acknowledged set is read back from both survivors, and each counter equals its acknowledged
     * incrs: none was lost and none applied twice, though some went to the dead leader and were sent again.
     */
    @Test
    void shouldKeepEveryAcknowledgedCommandWhenTheLeadersProcessDies() throws Exception {
        int rounds = 20;
        try (SimFabric fabric = new SimFabric(SimOptions.defaults().withTransportTimeoutNanos(20_000_000))) {
            CountDownLatch before = new CountDownLatch(3);
            CountDownLatch crashed = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(2);
            CountDownLatch checked = new CountDownLatch(2);
            List<String> outcomes = onThreads(3, i -> () -> {
                RemusCluster c = join(fabric, "a,b,c", i);
                ReplicatedCache cache = ReplicatedCache.join(c, 2, 6, CLOCK, Duration.ofSeconds(60), TIMING);
                if (i == 0) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (cache.leading() < 2) {
                        assertTrue(System.nanoTime() - deadline < 0, "node 0 did not take both shards over");
                        Thread.sleep(5);
                    }
                    before.countDown();
                    assertTrue(before.await(120, TimeUnit.SECONDS));
                    cache.halt();
                    fabric.stopAnswering(0);
                    crashed.countDown();
                    assertTrue(checked.await(180, TimeUnit.SECONDS));
                    return "crashed";
                }
                try (MemcachedEngine engine = cache.openEngine(i)) {
                    String counter = "counter" + i;
                    assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes(counter), 0, 0, bytes("0"), 0));
                    int incrs = 0;
                    for (int r = 0; r < rounds; r++) {
                        assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes("n" + i + "-" + r), r, 0,
                                bytes("before " + r), 0));
                        assertEquals(ArithmeticResult.Status.OK, engine.arithmetic(bytes(counter), true, 1).status());
                        incrs++;
                    }
                    before.countDown();
                    assertTrue(crashed.await(120, TimeUnit.SECONDS));
                    for (int r = 0; r < rounds; r++) {
                        assertEquals(StoreResult.STORED, engine.store(StoreMode.SET, bytes("m" + i + "-" + r), r, 0,
                                bytes("after " + r), 0));
                        assertEquals(ArithmeticResult.Status.OK, engine.arithmetic(bytes(counter), true, 1).status());
                        incrs++;
                    }
                    written.countDown();
                    assertTrue(written.await(120, TimeUnit.SECONDS));
                    for (int other : new int[] {1, 2}) {
                        for (int r = 0; r < rounds; r++) {
                            Item b = engine.get(bytes("n" + other + "-" + r));
                            assertArrayEquals(bytes("before " + r), b.value(), "node " + i + " reads n" + other + "-" + r);
                            assertEquals(r, b.flags());
                            assertArrayEquals(bytes("after " + r), engine.get(bytes("m" + other + "-" + r)).value());
                        }
                        assertArrayEquals(bytes(Integer.toString(2 * rounds)),
                                engine.get(bytes("counter" + other)).value(), "counter" + other + " took each incr once");
                    }
                    assertNull(engine.get(bytes("never")));
                    assertEquals(2 * rounds, incrs);
                    return "node " + i + " kept " + (4 * rounds + 2) + " commands";
                } catch (RuntimeException | AssertionError e) {
                    throw new AssertionError("node " + i + ":\n" + cache.describe(), e);
                } finally {
                    checked.countDown();
                    checked.await(120, TimeUnit.SECONDS);
                    cache.close();
                    closeQuietly(c);
                }
            });
            assertEquals(List.of("crashed", "node 1 kept 82 commands", "node 2 kept 82 commands"), outcomes);
        }
    }

    /** Leaves the cluster; a survivor's leave handshake with the dead node fails at its shutdown timeout. */
    private static void closeQuietly(RemusCluster c) {
        try {
            c.close();
        } catch (RemusException deadPeer) {
            // node 0 never announces its shutdown
        }
    }

    @Test
    void shouldRefuseAClusterOfTwoNodesNamingItsSize() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<String> messages = onThreads(2, i -> () -> {
                try (RemusCluster c = join(fabric, "a,b", i)) {
                    String m = assertThrows(BadArgumentException.class,
                            () -> ReplicatedCache.join(c, 2, 4, CLOCK, Duration.ofSeconds(5))).getMessage();
                    assertTrue(assertThrows(BadArgumentException.class, () -> ReplicatedCache.join(c, 2, 4, CLOCK,
                            Duration.ZERO)).getMessage().contains("timeout"));
                    return m;
                }
            });
            for (String m : messages) {
                assertTrue(m.contains("at least 3 nodes") && m.contains("the cluster has 2"), m);
            }
        }
    }
}
