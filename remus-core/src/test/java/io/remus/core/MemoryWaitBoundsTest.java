package io.remus.core;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The waits of this package take their bound from the caller, validated as {@link Timeouts} says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryWaitBoundsTest {
    static Stream<Duration> unusableTimeouts() {
        return Stream.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5), Timeouts.MAX_FINITE.plusNanos(1),
                Duration.ofSeconds(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration());
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 2, b -> b.operationTimeout(Duration.ofMillis(200)));
    }

    @ParameterizedTest
    @MethodSource("unusableTimeouts")
    void shouldRefuseBarrierTimeoutNamingItWhenUnusable(Duration timeout) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> new ClusterBarrier(t, 2, timeout));
            assertTrue(e.getMessage().contains("timeout") && e.getMessage().contains(timeout.toString()), e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("unusableTimeouts")
    void shouldRefuseShutdownTimeoutNamingItWhenUnusable(Duration timeout) {
        try (TestCluster c = cluster()) {
            MemoryNode m = c.node(0).memoryNode().orElseThrow();
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> m.awaitShutdown(2, timeout));
            assertTrue(e.getMessage().contains("timeout") && e.getMessage().contains(timeout.toString()), e.getMessage());
        }
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenNull() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> new ClusterBarrier(t, 2, null));
            assertEquals("timeout", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> new ClusterBarrier(null, 2, Duration.ofSeconds(1)));
            assertEquals("thread", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> new ClusterBarrier(null));
            assertEquals("thread", e.getMessage());
            MemoryNode m = c.node(0).memoryNode().orElseThrow();
            e = assertThrows(NullPointerException.class, () -> m.awaitShutdown(2, null));
            assertEquals("timeout", e.getMessage());
        }
    }

    @Test
    void shouldRefuseShutdownWaitForNoComputeNodes() {
        try (TestCluster c = cluster()) {
            MemoryNode m = c.node(0).memoryNode().orElseThrow();
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> m.awaitShutdown(0, Duration.ofSeconds(1)));
            assertTrue(e.getMessage().contains("0"), e.getMessage());
        }
    }

    @Test
    void shouldAcceptForeverAndTheLongestFiniteTimeoutWhenTheWaitEndsAtOnce() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            new ClusterBarrier(t, 1, Timeouts.FOREVER).await();
            new ClusterBarrier(t, 1, Timeouts.MAX_FINITE).await();
            ClusterShutdown.announce(t);
            MemoryNode m = c.node(1).memoryNode().orElseThrow();
            m.awaitShutdown(1, Timeouts.FOREVER);
            m.awaitShutdown(1, Timeouts.MAX_FINITE);
        }
    }

    @Test
    void shouldFailTypedNamingTheBoundWhenTheBarrierWaitReachesItsDeadline() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            Duration bound = Duration.ofMillis(50);
            RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> new ClusterBarrier(t, 2, bound).await());
            assertTrue(e.getMessage().contains(bound.toString()) && e.getMessage().contains("2 participants"), e.getMessage());
        }
    }

    @Test
    void shouldFailTypedNamingTheBoundWhenTheShutdownWaitReachesItsDeadline() {
        try (TestCluster c = cluster()) {
            Duration bound = Duration.ofMillis(50);
            MemoryNode m = c.node(0).memoryNode().orElseThrow();
            RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> m.awaitShutdown(2, bound));
            assertTrue(e.getMessage().contains(bound.toString()) && e.getMessage().contains("of 2 compute nodes"), e.getMessage());
        }
    }
}
