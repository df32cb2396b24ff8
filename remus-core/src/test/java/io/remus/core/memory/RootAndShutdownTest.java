package io.remus.core.memory;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReleaseMemoryNodesWhenEveryComputeNodeAnnouncedShutdown(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.operationTimeout(Duration.ofMillis(300)))) {
            MemoryNode m1 = c.node(1).memoryNode().orElseThrow();
            try (ComputeThread t0 = c.thread(0)) {
                ClusterShutdown.announce(t0);
            }
            assertThrows(RemoteTimeoutException.class, () -> m1.awaitShutdown(3, Duration.ofMillis(100)));
            c.runOnThreads(new int[] {1, 2}, (i, t) -> ClusterShutdown.announce(t));
            m1.awaitShutdown(3, Duration.ofSeconds(5));
            c.node(2).memoryNode().orElseThrow().awaitShutdown(3, Duration.ofSeconds(5));
        }
    }
}
