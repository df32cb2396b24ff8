package io.remus.core;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RootAndShutdownTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldShareRootWhenSetOnOneNodeAndReadOnOthers(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t0 = c.thread(0); ComputeThread t2 = c.thread(2)) {
            Root r0 = new Root(t0);
            Root r2 = new Root(t2);
            assertEquals(RemotePtr.NULL, r2.get());
            long block = new RemoteAllocator(t2).allocate(64, 2);
            assertEquals(RemotePtr.NULL, r2.compareAndSwap(RemotePtr.NULL, block));
            assertEquals(block, r0.get());
            assertEquals(block, r0.compareAndSwap(RemotePtr.NULL, RemotePtr.of(1, 8)), "a stale CAS fails");
            r0.set(RemotePtr.NULL);
            assertEquals(RemotePtr.NULL, r2.get());
        }
    }

    /**
     * A set racing compare-and-swaps that fail: each set must stay. With NIC atomics that yield between their load
     * and their store (and store the loaded value back when the compare fails, as Soft-RoCE does), a set made by
     * RDMA WRITE was lost at once (the first set, in the simulator); a set made by compare-and-swap cannot be.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepEverySetWhenOtherThreadsCompareAndSwapsFailMeanwhile(Function<SimOptions, Fabric> make) throws Exception {
        int sets = 2_000;
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, b -> { })) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong failed = new AtomicLong();
            long[] lost = {-1, -1}; // the set that was lost, and what the root read instead
            c.runOnThreads(new int[] {1, 2}, (i, t) -> {
                Root root = new Root(t);
                if (i == 0) {
                    try {
                        for (long k = 1; k <= sets && lost[0] < 0; k++) {
                            long before = failed.get();
                            root.set(k);
                            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                            while (failed.get() < before + 2) { // the one in flight during the set, if any, has stored
                                assertTrue(System.nanoTime() < deadline, "the racing thread stopped");
                                Thread.onSpinWait();
                            }
                            long seen = root.get();
                            if (seen != k) {
                                lost[0] = k;
                                lost[1] = seen;
                            }
                        }
                    } finally {
                        done.set(true);
                    }
                } else {
                    while (!done.get()) {
                        root.compareAndSwap(-1, 7); // never matches: fails, and a device may store what it loaded
                        failed.incrementAndGet();
                    }
                }
            });
            assertEquals(-1, lost[0], "set(" + lost[0] + ") was lost: the root read " + lost[1] + " after it");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReleaseMemoryNodesWhenEveryComputeNodeAnnouncedShutdown(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.operationTimeout(Duration.ofMillis(300)))) {
            MemoryNode m1 = c.node(1).memoryNode().orElseThrow();
            try (ComputeThread t0 = c.thread(0)) {
                ClusterShutdown.announce(t0);
            }
            RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> m1.awaitShutdown(3, Duration.ofMillis(100)));
            assertTrue(e.getMessage().contains("not announced: node 1, node 2"), e.getMessage());
            try (ComputeThread again = c.thread(0)) {
                ClusterShutdown.announce(again);
            }
            e = assertThrows(RemoteTimeoutException.class, () -> m1.awaitShutdown(3, Duration.ofMillis(100)),
                    "a second announcement by node 0 is not counted again");
            assertTrue(e.getMessage().startsWith("only 1 of 3"), e.getMessage());
            c.runOnThreads(new int[] {2}, (i, t) -> ClusterShutdown.announce(t));
            e = assertThrows(RemoteTimeoutException.class, () -> m1.awaitShutdown(3, Duration.ofMillis(100)));
            assertTrue(e.getMessage().endsWith("not announced: node 1"), e.getMessage());
            c.runOnThreads(new int[] {1}, (i, t) -> ClusterShutdown.announce(t));
            m1.awaitShutdown(3, Duration.ofSeconds(5));
            c.node(2).memoryNode().orElseThrow().awaitShutdown(3, Duration.ofSeconds(5));
        }
    }
}
