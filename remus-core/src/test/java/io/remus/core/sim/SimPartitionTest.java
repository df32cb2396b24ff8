package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's network partitions ({@link SimFabric#partition}, {@link SimFabric#isolate}, {@link SimFabric#heal}):
 * every one-sided operation across a cut link fails as one to a node that stopped answering does, both ways, while
 * each side's own traffic goes on; a heal restores every link; bad input changes nothing; under virtual time a seed
 * replays the same outcomes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimPartitionTest {
    /** A short transport timeout, so that each operation across a cut fails quickly in host time. */
    private static final SimOptions OPTIONS = SimOptions.defaults().withTransportTimeoutNanos(20_000_000L);

    private static TestCluster cluster(int nodes) {
        return new TestCluster(SimFabric::new, OPTIONS, nodes, b -> { });
    }

    /** Runs a READ, a WRITE, a compare-and-swap, a fetch-and-add and a two-request batch on {@code word}; {@return how many failed unreachable, each naming {@code node}} */
    private static int unreachableOperations(ComputeThread t, long word, int node) {
        List<Executable> operations = List.of(
                () -> t.read(word),
                () -> t.write(word, 99),
                () -> t.compareAndSwap(word, 0, 99),
                () -> t.fetchAndAdd(word, 1),
                () -> t.batch().write(word, 0, 8).read(word, 8, 8).execute());
        int failed = 0;
        for (Executable op : operations) {
            PeerUnreachableException e = assertThrows(PeerUnreachableException.class, op);
            assertEquals(CompletionStatus.RETRY_EXCEEDED, e.status());
            assertEquals(node, e.nodeId());
            failed++;
        }
        return failed;
    }

    /** Runs a WRITE, a READ, a compare-and-swap and a fetch-and-add on {@code word}, asserting each one's result. */
    private static void reachableOperations(ComputeThread t, long word) {
        t.write(word, 5);
        assertEquals(5, t.read(word));
        assertEquals(5, t.compareAndSwap(word, 5, 6));
        assertEquals(6, t.fetchAndAdd(word, 1));
        assertEquals(7, t.read(word));
    }

    @Test
    void shouldFailOperationsAcrossTheCutBothWaysWhileEachSideGoesOn() {
        try (TestCluster c = cluster(4)) {
            long[] words = new long[4];
            for (int n = 0; n < 4; n++) {
                words[n] = c.block(n, 8);
            }
            SimFabric sim = (SimFabric) c.fabric();
            sim.partition(Set.of(0, 1));
            try (ComputeThread left = c.thread(0); ComputeThread right = c.thread(3)) {
                assertEquals(5, unreachableOperations(left, words[2], 2));
                assertEquals(5, unreachableOperations(left, words[3], 3));
                assertEquals(5, unreachableOperations(right, words[0], 0));
                assertEquals(5, unreachableOperations(right, words[1], 1));
                assertEquals(0, c.raw(words[2], 8).get(ValueLayout.JAVA_LONG, 0), "nothing crossed the cut to node 2");
                assertEquals(0, c.raw(words[0], 8).get(ValueLayout.JAVA_LONG, 0), "nothing crossed the cut to node 0");
                reachableOperations(left, words[1]);
                reachableOperations(right, words[2]);
                reachableOperations(left, words[0]);
                reachableOperations(right, words[3]);
            }
            try (ComputeThread middle = c.thread(1)) {
                assertEquals(5, unreachableOperations(middle, words[2], 2));
                assertEquals(7, middle.read(words[0]), "node 1 still reaches node 0 after its own failures");
            }
        }
    }

    @Test
    void shouldRestoreEveryLinkOnHeal() {
        try (TestCluster c = cluster(3)) {
            long[] words = {c.block(0, 8), c.block(1, 8), c.block(2, 8)};
            SimFabric sim = (SimFabric) c.fabric();
            sim.partition(Set.of(2));
            try (ComputeThread t = c.thread(0)) {
                assertEquals(5, unreachableOperations(t, words[2], 2));
                sim.heal();
                reachableOperations(t, words[2]);
                reachableOperations(t, words[1]);
            }
            for (int from = 0; from < 3; from++) {
                for (int to = 0; to < 3; to++) {
                    assertTrue(sim.linked(from, to), from + " -> " + to);
                }
            }
            sim.heal();
            assertTrue(sim.linked(0, 2), "healing twice changes nothing");
        }
    }

    @Test
    void shouldIsolateOneNodeWhoseOwnLoopbackGoesOn() {
        try (TestCluster c = cluster(3)) {
            long[] words = {c.block(0, 8), c.block(1, 8), c.block(2, 8)};
            SimFabric sim = (SimFabric) c.fabric();
            sim.isolate(1);
            try (ComputeThread isolated = c.thread(1); ComputeThread other = c.thread(2)) {
                reachableOperations(isolated, words[1]);
                assertEquals(5, unreachableOperations(isolated, words[0], 0));
                assertEquals(5, unreachableOperations(other, words[1], 1));
                reachableOperations(other, words[0]);
            }
        }
    }

    @Test
    void shouldComposePartitionsAndLeaveStoppedNodesSilentAcrossAHeal() {
        try (TestCluster c = cluster(4)) {
            long word = c.block(2, 8);
            SimFabric sim = (SimFabric) c.fabric();
            sim.partition(Set.of(0, 1));
            sim.partition(Set.of(1));
            boolean[][] expected = {
                    {true, false, false, false},
                    {false, true, false, false},
                    {false, false, true, true},
                    {false, false, true, true}};
            for (int from = 0; from < 4; from++) {
                for (int to = 0; to < 4; to++) {
                    assertEquals(expected[from][to], sim.linked(from, to), from + " -> " + to);
                }
            }
            sim.heal();
            sim.isolate(0);
            sim.isolate(3);
            assertFalse(sim.linked(0, 3));
            assertFalse(sim.linked(3, 1));
            assertTrue(sim.linked(1, 2));

            sim.heal();
            sim.stopAnswering(2);
            try (ComputeThread t = c.thread(1)) {
                assertEquals(5, unreachableOperations(t, word, 2));
                sim.resumeAnswering(2);
                reachableOperations(t, word);
            }
        }
    }

    /**
     * On the fabric's own API: a SEND across the cut completes with {@code RETRY_EXCEEDED} and consumes no receive, a
     * WRITE behind it is flushed, and after the heal a queue pair reset sends again; a WRITE posted across a cut that
     * heals before its transport timeout passes executes.
     */
    @Test
    void shouldFailMessagesAcrossTheCutAndExecuteARequestWhoseLinkHealsInTime() {
        try (SimFabric fabric = new SimFabric(OPTIONS)) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            CompletionQueue receivedB = b.createCompletionQueue(8);
            ReceiveQueue rqB = b.createReceiveQueue(receivedB, 4);
            RegisteredMemory memA = a.allocate(4096);
            RegisteredMemory memB = b.allocate(4096);
            ReceiveRequests r = new ReceiveRequests(1);
            r.add(7, memB.address(), 64, memB.lkey());
            rqB.post(r);
            CompletionQueue sendA = a.createCompletionQueue(8);
            QueuePair ab = a.connect(1, sendA, 4, Duration.ofMinutes(1));
            memA.segment().set(ValueLayout.JAVA_LONG, 0, 41L);
            fabric.isolate(1);
            assertFalse(fabric.linked(0, 1));
            assertFalse(fabric.linked(1, 0));
            WorkRequests w = new WorkRequests(2);
            w.addSend(1, memA.address(), 8, memA.lkey(), WorkRequests.SIGNALED);
            w.addWrite(2, memA.address(), 8, memA.lkey(), memB.address() + 512, memB.rkey(), WorkRequests.SIGNALED);
            ab.post(w);
            Completions out = new Completions(2);
            assertEquals(2, pollAll(sendA, out, 2));
            assertEquals(CompletionStatus.RETRY_EXCEEDED, out.status(0));
            assertEquals(CompletionStatus.FLUSHED, out.status(1));
            assertTrue(ab.inError());
            assertEquals(0, receivedB.poll(new Completions(1), Duration.ZERO), "no receive was consumed");
            assertEquals(0L, memB.segment().get(ValueLayout.JAVA_LONG, 512), "the flushed WRITE never landed");

            fabric.heal();
            ab.reset();
            w.clear();
            w.addSend(3, memA.address(), 8, memA.lkey(), WorkRequests.SIGNALED);
            ab.post(w);
            assertEquals(1, pollAll(sendA, out, 1));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(1, receivedB.poll(new Completions(1), Duration.ofSeconds(10)), "the SEND after the heal was received");
            assertEquals(41L, memB.segment().get(ValueLayout.JAVA_LONG, 0));
        }
        try (SimFabric fabric = new SimFabric(OPTIONS.withTransportTimeoutNanos(60_000_000_000L))) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory memA = a.allocate(4096);
            RegisteredMemory memB = b.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(8);
            QueuePair ab = a.connect(1, cq, 4, Duration.ofMinutes(1));
            memA.segment().set(ValueLayout.JAVA_LONG, 0, 43L);
            fabric.partition(Set.of(0));
            WorkRequests w = new WorkRequests(1);
            w.addWrite(4, memA.address(), 8, memA.lkey(), memB.address(), memB.rkey(), WorkRequests.SIGNALED);
            ab.post(w);
            Completions out = new Completions(1);
            assertEquals(0, cq.poll(out, Duration.ZERO), "the WRITE waits across the cut");
            assertEquals(0L, memB.segment().get(ValueLayout.JAVA_LONG, 0));
            fabric.heal();
            assertEquals(1, pollAll(cq, out, 1));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(43L, memB.segment().get(ValueLayout.JAVA_LONG, 0), "the WRITE executed once the link healed");
        }
    }

    private static int pollAll(CompletionQueue cq, Completions out, int wanted) {
        int got = cq.poll(out, Duration.ofSeconds(10));
        assertEquals(wanted, got);
        return got;
    }

    @Test
    void shouldRefuseBadSidesAndCutNothing() {
        try (TestCluster c = cluster(3)) {
            long word = c.block(2, 8);
            SimFabric sim = (SimFabric) c.fabric();
            assertRefused(() -> sim.partition(Set.of()), "none");
            assertRefused(() -> sim.partition(Set.of(0, 7)), "node 7");
            assertRefused(() -> sim.partition(Set.of(-1)), "-1");
            assertRefused(() -> sim.partition(Set.of(70_000)), "70000");
            assertRefused(() -> sim.partition(Set.of(0, 1, 2)), "every open node");
            assertRefused(() -> sim.isolate(9), "node 9");
            assertRefused(() -> sim.linked(0, 1 << 16), "65536");
            NullPointerException npe = assertThrows(NullPointerException.class, () -> sim.partition(null));
            assertEquals("side", npe.getMessage());
            Set<Integer> withNull = new HashSet<>(Arrays.asList(0, null));
            assertThrows(NullPointerException.class, () -> sim.partition(withNull));
            for (int from = 0; from < 3; from++) {
                for (int to = 0; to < 3; to++) {
                    assertTrue(sim.linked(from, to), "a refused partition cut " + from + " -> " + to);
                }
            }
            try (ComputeThread t = c.thread(0)) {
                reachableOperations(t, word);
            }
            try (TestCluster single = cluster(1)) {
                assertRefused(() -> ((SimFabric) single.fabric()).isolate(0), "every open node");
            }
        }
    }

    private static void assertRefused(Executable call, String named) {
        BadArgumentException e = assertThrows(BadArgumentException.class, call);
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }

    /**
     * One virtual-time run: a writer on node 0 WRITEs to node 1 in a loop while the main thread isolates node 1, later
     * heals, and the writer WRITEs again. {@return what the writer saw: successes before the cut, the failure's status
     * and virtual time after the cut, and the word after the heal}
     */
    private static List<Long> partitionedRun(long seed) {
        List<Long> seen = new ArrayList<>();
        SimOptions model = OPTIONS.withCostModel(SimCostModel.CONNECTX5);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, model, 3, b -> { })) {
                SimFabric sim = (SimFabric) c.fabric();
                long word = c.block(1, 8);
                long other = c.block(2, 8);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                long[] cutAt = new long[1];
                long[] written = new long[1];
                long[] failedAt = new long[1];
                Thread writer = ThreadTime.newThread("writer", () -> {
                    try (ComputeThread t = c.thread(0)) {
                        try {
                            for (long v = 1; ; v++) {
                                t.write(word, v);
                                written[0] = v;
                            }
                        } catch (PeerUnreachableException e) {
                            failedAt[0] = ThreadTime.nanoTime();
                            failure.set(e);
                        }
                        t.write(other, 3);
                    }
                });
                writer.start();
                ThreadTime.parkNanos(null, 40_000 + seed * 131);
                cutAt[0] = ThreadTime.nanoTime();
                sim.isolate(1);
                assertTrue(ThreadTime.join(writer, 10_000_000_000L), "the writer's WRITE across the cut failed");
                PeerUnreachableException e = (PeerUnreachableException) failure.get();
                assertTrue(written[0] > 0, "the writer wrote before the cut");
                assertTrue(failedAt[0] - cutAt[0] >= OPTIONS.transportTimeoutNanos(),
                        "the WRITE across the cut failed only after the transport timeout");
                assertEquals(written[0], c.raw(word, 8).get(ValueLayout.JAVA_LONG, 0), "the failed WRITE never landed");
                assertEquals(3, c.raw(other, 8).get(ValueLayout.JAVA_LONG, 0), "node 0 still reached node 2");
                sim.heal();
                try (ComputeThread t = c.thread(0)) {
                    t.write(word, -1);
                    assertEquals(-1, t.read(word));
                }
                seen.add(written[0]);
                seen.add((long) e.status().ordinal());
                seen.add(failedAt[0]);
            }
        });
        return seen;
    }

    /** Under virtual time, a WRITE blocked on a cut that heals within the transport timeout lands and returns. */
    @Test
    void shouldLandAWriteWhoseLinkHealsWithinTheTimeoutUnderVirtualTime() {
        SimOptions model = OPTIONS.withCostModel(SimCostModel.CONNECTX5);
        for (long seed = 1; seed <= 3; seed++) {
            VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
                try (TestCluster c = new TestCluster(SimFabric::new, model, 2, b -> { })) {
                    SimFabric sim = (SimFabric) c.fabric();
                    long word = c.block(1, 8);
                    AtomicReference<Throwable> failure = new AtomicReference<>();
                    sim.isolate(1);
                    Thread writer = ThreadTime.newThread("writer", () -> {
                        try (ComputeThread t = c.thread(0)) {
                            t.write(word, 5);
                        } catch (Throwable e) {
                            failure.set(e);
                        }
                    });
                    writer.start();
                    ThreadTime.parkNanos(null, OPTIONS.transportTimeoutNanos() / 20);
                    sim.heal();
                    assertTrue(ThreadTime.join(writer, 10_000_000_000L));
                    assertEquals(null, failure.get(), "the WRITE returned");
                    assertEquals(5, c.raw(word, 8).get(ValueLayout.JAVA_LONG, 0), "the WRITE landed");
                }
            });
        }
    }

    @Test
    void shouldReplayTheSameOutcomesFromTheSameSeedUnderVirtualTime() {
        for (long seed = 1; seed <= 5; seed++) {
            List<Long> first = partitionedRun(seed);
            assertEquals(CompletionStatus.RETRY_EXCEEDED.ordinal(), first.get(1));
            assertEquals(first, partitionedRun(seed), "seed " + seed);
        }
    }
}
