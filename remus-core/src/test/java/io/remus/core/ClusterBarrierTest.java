package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.BarrierMismatchException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    private static long barrierWord(TestCluster c, ComputeThread t) {
        long word = RemotePtr.offset(t.segmentBase(t.config().memoryNodes().first(), 0), ControlBlock.BARRIER_WORD);
        return c.raw(word, 8).get(ValueLayout.JAVA_LONG, 0);
    }

    private static void waitForRound(TestCluster c, ComputeThread t, long participants, long arrivals) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ClusterBarrier.participants(barrierWord(c, t)) != participants
                || ClusterBarrier.arrivals(barrierWord(c, t)) != arrivals) {
            assertTrue(System.nanoTime() < deadline, "the barrier word never showed " + arrivals + " of " + participants
                    + " arrivals: 0x" + Long.toHexString(barrierWord(c, t)));
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void assertNoRound(long word, String message) {
        assertEquals(0, ClusterBarrier.participants(word), message);
        assertEquals(0, ClusterBarrier.arrivals(word), message);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAnArrivalThatCountsDifferentlyAndNeverReleaseTheRoundEarly(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { })) {
            AtomicBoolean released = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread first = Thread.ofPlatform().name("counts-2").start(() -> {
                try (ComputeThread t = c.thread(0)) {
                    new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
                    released.set(true);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            try (ComputeThread t = c.thread(1)) {
                waitForRound(c, t, 2, 1);
                ClusterBarrier three = new ClusterBarrier(t, 3, Duration.ofSeconds(30));
                BarrierMismatchException e = assertThrows(BarrierMismatchException.class, three::await);
                assertEquals(3, e.participants());
                assertEquals(2, e.roundParticipants());
                assertTrue(e.getMessage().contains("3") && e.getMessage().contains("2"), e.getMessage());
                ClusterBarrier one = new ClusterBarrier(t, 1, Duration.ofSeconds(30));
                assertThrows(BarrierMismatchException.class, one::await, "a single participant would release at once");
                assertEquals(1, ClusterBarrier.arrivals(barrierWord(c, t)), "refused arrivals are not counted");
                assertEquals(2, ClusterBarrier.participants(barrierWord(c, t)), "the round keeps its count");
                first.join(200);
                assertFalse(released.get(), "the round of 2 has 1 arrival: it must not release");
            }
            try (ComputeThread t = c.thread(2)) {
                new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
            }
            first.join(30_000);
            assertNull(failure.get());
            assertTrue(released.get(), "the second agreeing arrival releases the round");
            try (ComputeThread t = c.thread(0)) {
                assertNoRound(barrierWord(c, t), "a released round leaves no round in progress");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNotReleaseTheOthersEarlyWhenASingleParticipantPassesBetweenTheirRounds(Function<SimOptions, Fabric> make)
            throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { });
             ComputeThread a = c.thread(0)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread partner = Thread.ofPlatform().name("partner").start(() -> {
                try (ComputeThread t = c.thread(1)) {
                    new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            ClusterBarrier pair = new ClusterBarrier(a, 2, Duration.ofMillis(500));
            waitForRound(c, a, 2, 1);
            pair.await();
            partner.join(30_000);
            assertNull(failure.get());
            Thread alone = Thread.ofPlatform().name("alone").start(() -> {
                try (ComputeThread t = c.thread(2)) {
                    new ClusterBarrier(t, 1, Duration.ofSeconds(30)).await();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            alone.join(30_000);
            assertNull(failure.get());
            assertNoRound(barrierWord(c, a), "a round of one leaves no round in progress");
            assertThrows(RemoteTimeoutException.class, pair::await,
                    "the partner never comes to the second round: it must not release");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepThreadsInStepWhenInstancesAreMadeAfterEarlierRoundsOrCountsChangeBetweenRounds(Function<SimOptions, Fabric> make)
            throws Exception {
        int[] nodes = {0, 1, 2};
        AtomicIntegerArray round = new AtomicIntegerArray(nodes.length);
        CountDownLatch twoDone = new CountDownLatch(2);
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(nodes, (me, t) -> {
                if (me < 2) {
                    ClusterBarrier pair = new ClusterBarrier(t, 2);
                    pair.await();
                    pair.await();
                    pair.await();
                    twoDone.countDown();
                } else {
                    assertTrue(twoDone.await(30, TimeUnit.SECONDS));
                }
                for (int r = 1; r <= 5; r++) {
                    round.set(me, r);
                    new ClusterBarrier(t, 3).await();
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
    void shouldNotReleaseAWaiterWhenAGroupOfAnotherCountCompletesRoundsBetweenItsRounds(Function<SimOptions, Fabric> make)
            throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { })) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] threes = new Thread[2];
            for (int i = 0; i < 2; i++) {
                int node = i + 1;
                threes[i] = Thread.ofPlatform().name("three-" + node).start(() -> {
                    try (ComputeThread t = c.thread(node)) {
                        new ClusterBarrier(t, 3, Duration.ofSeconds(30)).await();
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
            }
            try (ComputeThread a = c.thread(0)) {
                ClusterBarrier three = new ClusterBarrier(a, 3, Duration.ofMillis(500));
                waitForRound(c, a, 3, 2);
                three.await();
                for (Thread t : threes) {
                    t.join(30_000);
                }
                assertNull(failure.get());
                Thread[] pair = new Thread[2];
                for (int i = 0; i < 2; i++) {
                    int node = i + 1;
                    pair[i] = Thread.ofPlatform().name("two-" + node).start(() -> {
                        try (ComputeThread t = c.thread(node)) {
                            new ClusterBarrier(t, 2, Duration.ofSeconds(30)).await();
                        } catch (Throwable e) {
                            failure.set(e);
                        }
                    });
                }
                for (Thread t : pair) {
                    t.join(30_000);
                }
                assertNull(failure.get());
                assertThrows(RemoteTimeoutException.class, three::await,
                        "alone in its second round: a completed round of 2 must not release it");
                assertNoRound(barrierWord(c, a), "the timed-out arrival is withdrawn");
                ClusterBarrier two = new ClusterBarrier(a, 2, Duration.ofMillis(500));
                assertThrows(RemoteTimeoutException.class, two::await,
                        "a barrier of another count can open a round after the withdrawal");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNameOnlyTheComputeNodeThatNeverArrivesAndRejoinTheRoundWhenTheSameInstanceRetries(
            Function<SimOptions, Fabric> make) throws Exception {
        int[] nodes = {0, 1, 2};
        AtomicReferenceArray<String> missingTwo = new AtomicReferenceArray<>(3);
        AtomicReferenceArray<String> missingZero = new AtomicReferenceArray<>(3);
        CountDownLatch twoMissed = new CountDownLatch(2);
        CountDownLatch retried = new CountDownLatch(3);
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(nodes, (me, t) -> {
                ClusterBarrier steady = ClusterBarrier.ofComputeNodes(t, Duration.ofSeconds(30));
                for (int r = 0; r < 5; r++) {
                    steady.await();
                }
                ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(t, Duration.ofSeconds(2));
                if (me != 2) {
                    missingTwo.set(me, assertThrows(RemoteTimeoutException.class, barrier::await).getMessage());
                    twoMissed.countDown();
                    barrier.await();
                } else {
                    assertTrue(twoMissed.await(30, TimeUnit.SECONDS));
                    waitForRound(c, t, 3, 2);
                    barrier.await();
                }
                retried.countDown();
                if (me != 0) {
                    missingZero.set(me, assertThrows(RemoteTimeoutException.class, barrier::await).getMessage());
                }
            });
            for (int me : new int[] {0, 1}) {
                String m = missingTwo.get(me);
                assertTrue(m.contains("not arrived: node 2 (" + c.node(2).config().nodeAddress(2) + ")"), m);
                assertFalse(m.contains("node 0") || m.contains("node 1"), "names a node that arrived: " + m);
            }
            for (int me : new int[] {1, 2}) {
                String m = missingZero.get(me);
                assertTrue(m.contains("not arrived: node 0 (" + c.node(0).config().nodeAddress(0) + ")"), m);
                assertFalse(m.contains("node 1") || m.contains("node 2"), "names a node that arrived: " + m);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldGiveOnlyTheCountsWhenABarrierOfAParticipantCountTimesOut(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread t = c.thread(0)) {
            String m = assertThrows(RemoteTimeoutException.class, new ClusterBarrier(t, 2, Duration.ofMillis(200))::await)
                    .getMessage();
            assertTrue(m.contains("not all 2 participants arrived") && m.contains("0 others had arrived"), m);
            assertFalse(m.contains("node"), "a count-only barrier knows no nodes: " + m);
        }
    }
}
