package io.remus.core.memory;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
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
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterBarrierTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepEveryThreadInStepWhenRepeatedManyRoundsAcrossThreeNodes(Function<SimOptions, Fabric> make) throws Exception {
        int[] nodes = {0, 0, 1, 1, 2, 2};
        int rounds = 150;
        AtomicIntegerArray round = new AtomicIntegerArray(nodes.length);
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.threadsPerNode(2))) {
            c.runOnThreads(nodes, (me, t) -> {
                ClusterBarrier barrier = new ClusterBarrier(t);
                for (int r = 1; r <= rounds; r++) {
                    round.set(me, r);
                    barrier.await();
                    for (int j = 0; j < nodes.length; j++) {
                        int theirs = round.get(j);
                        assertTrue(theirs == r || theirs == r + 1,
                                "thread " + me + " left round " + r + " while thread " + j + " was in round " + theirs);
                    }
                }
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowTimeoutWhenParticipantNeverArrives(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.operationTimeout(Duration.ofMillis(200)));
             ComputeThread t = c.thread(0)) {
            ClusterBarrier barrier = new ClusterBarrier(t);
            assertThrows(RemoteTimeoutException.class, barrier::await);
            assertThrows(BadArgumentException.class, () -> new ClusterBarrier(t, 0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldWaitItsOwnTimeoutWhenGivenOneLongerThanTheOperationTimeout(Function<SimOptions, Fabric> make)
            throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.operationTimeout(Duration.ofMillis(200)))) {
            Thread late = Thread.ofPlatform().start(() -> {
                try (ComputeThread t = c.thread(1)) {
                    LockSupport.parkNanos(Duration.ofMillis(600).toNanos());
                    new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
                assertThrows(BadArgumentException.class, () -> new ClusterBarrier(t, 2, Duration.ZERO));
            }
            late.join(30_000);
        }
    }
}
