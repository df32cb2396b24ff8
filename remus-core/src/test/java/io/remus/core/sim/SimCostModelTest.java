package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.testing.CompletionPolls;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SimCostModel} applied by the simulator: a request's completion is pollable no earlier than the
 * model's cost (lower bounds only: the model promises a minimum, and a loaded host only adds), atomics on
 * one word wait for its NIC atomic unit, loopback costs what remote does, the default model charges
 * nothing, and bad figures are refused with typed errors.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SimCostModelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** A model slow enough that its lower bounds cannot be met by chance on a loaded host. */
    private static final SimCostModel SLOW = new SimCostModel("slow", 20_000_000L, 10_000_000L, 10_000_000L, 0, 0);

    /** Two nodes of one fabric, node 0 posting to node {@code target} through its own QP and CQ. */
    private record Pair(SimFabric fabric, FabricNode node, RegisteredMemory local, RegisteredMemory remote,
                        CompletionQueue cq, QueuePair qp) implements AutoCloseable {
        static Pair open(SimOptions options, boolean loopback) {
            SimFabric fabric = new SimFabric(options);
            FabricNode a = fabric.open(0);
            FabricNode b = loopback ? a : fabric.open(1);
            RegisteredMemory remote = b.allocate(2 << 20);
            RegisteredMemory local = a.allocate(2 << 20);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(b.nodeId(), cq, 16, Duration.ofMinutes(1));
            return new Pair(fabric, a, local, remote, cq, qp);
        }

        /** Posts one signaled READ of {@code length} bytes and waits for it; @return the nanoseconds it took */
        long timedRead(int length) {
            WorkRequests wrs = new WorkRequests(1);
            wrs.addRead(1, local.address(), length, local.lkey(), remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            Completions out = new Completions(4);
            long start = System.nanoTime();
            qp.post(wrs);
            assertEquals(1, CompletionPolls.pollSome(cq, out, WAIT));
            long took = System.nanoTime() - start;
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            return took;
        }

        @Override
        public void close() {
            fabric.close();
        }
    }

    @Test
    void shouldCompleteAReadNoEarlierThanItsRoundTripWhenTheModelIsConnectX5() {
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5), false)) {
            long took = p.timedRead(8);
            assertTrue(took >= SimCostModel.CONNECTX5.readWriteRoundTripNanos(), "an 8-byte READ took " + took + " ns");
        }
    }

    @Test
    void shouldChargeTheTransferWhenAReadIsLarge() {
        int length = 1 << 20;
        long modelled = SimCostModel.CONNECTX5.readWriteRoundTripNanos()
                + (long) length * SimCostModel.CONNECTX5.picosPerByte() / 1000;
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5), false)) {
            p.remote.segment().set(ValueLayout.JAVA_LONG, length - 8, 77L);
            long took = p.timedRead(length);
            assertTrue(took >= modelled, "a 1 MiB READ took " + took + " ns, the model " + modelled);
            assertEquals(77L, p.local.segment().get(ValueLayout.JAVA_LONG, length - 8), "the data arrived");
        }
    }

    @Test
    void shouldCompleteNoEarlierThanTheModelWhenTheModelIsSlow() {
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(SLOW), false)) {
            long took = p.timedRead(8);
            assertTrue(took >= SLOW.readWriteRoundTripNanos(), "a READ took " + took + " ns");
        }
    }

    @Test
    void shouldCostWhatRemoteCostsWhenTheReadIsLoopback() {
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(SLOW), true)) {
            long took = p.timedRead(8);
            assertTrue(took >= SLOW.readWriteRoundTripNanos(), "a loopback READ took " + took + " ns");
        }
    }

    @Test
    void shouldCompleteOnPostingWhenTheModelIsTheDefault() {
        assertSame(SimCostModel.NONE, SimOptions.defaults().costModel());
        assertTrue(SimCostModel.NONE.isFree());
        try (Pair p = Pair.open(SimOptions.defaults(), false)) {
            WorkRequests wrs = new WorkRequests(2);
            wrs.addRead(1, p.local.address(), 8, p.local.lkey(), p.remote.address(), p.remote.rkey(), WorkRequests.SIGNALED);
            wrs.addCompareAndSwap(2, p.local.address() + 8, p.local.lkey(), p.remote.address(), p.remote.rkey(), 0, 5,
                    WorkRequests.SIGNALED);
            p.qp.post(wrs);
            Completions out = new Completions(4);
            assertEquals(2, p.cq.poll(out), "both completions are pollable at once, as without a model");
            assertEquals(5L, p.remote.segment().get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void shouldQueueAtomicsOnOneWordBehindItsUnitWhenPostedOnTwoQueuePairs() {
        SimOptions options = SimOptions.defaults().withCostModel(SLOW);
        try (SimFabric fabric = new SimFabric(options)) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair first = a.connect(1, cq, 16, Duration.ofMinutes(1));
            QueuePair second = a.connect(1, cq, 16, Duration.ofMinutes(1));
            WorkRequests one = new WorkRequests(1);
            WorkRequests two = new WorkRequests(1);
            one.addFetchAndAdd(1, local.address(), local.lkey(), remote.address(), remote.rkey(), 1, WorkRequests.SIGNALED);
            two.addFetchAndAdd(2, local.address() + 8, local.lkey(), remote.address(), remote.rkey(), 1, WorkRequests.SIGNALED);
            long start = System.nanoTime();
            first.post(one);
            second.post(two);
            long[] doneAt = new long[3];
            Completions out = new Completions(4);
            for (int seen = 0; seen < 2; ) {
                int n = CompletionPolls.pollSome(cq, out, WAIT);
                long now = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    assertEquals(CompletionStatus.SUCCESS, out.status(i));
                    doneAt[(int) out.wrId(i)] = now - start;
                    seen++;
                }
            }
            assertTrue(doneAt[1] >= SLOW.atomicRoundTripNanos(), "the first took " + doneAt[1] + " ns");
            assertTrue(doneAt[2] >= SLOW.atomicRoundTripNanos() + SLOW.atomicUnitNanos(),
                    "the second took " + doneAt[2] + " ns, behind the first on the word's unit");
            assertEquals(2L, remote.segment().get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void shouldCompleteTheLaterCompareAndSwapNoEarlierThanTwoAtomicsWhenTwoThreadsShareAWord() throws InterruptedException {
        SimOptions options = SimOptions.defaults().withCostModel(SLOW);
        try (TestCluster c = new TestCluster(SimFabric::new, options, 2, b -> { })) {
            long word = c.block(1, 8);
            CountDownLatch go = new CountDownLatch(1);
            AtomicLongArray doneAt = new AtomicLongArray(2);
            long[] start = new long[1];
            Thread starter = new Thread(() -> {
                start[0] = System.nanoTime();
                go.countDown();
            });
            c.runOnThreads(new int[] {0, 0}, (index, t) -> {
                if (index == 0) {
                    starter.start();
                }
                assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the start signal came");
                t.compareAndSwap(word, 0, index + 1);
                doneAt.set(index, System.nanoTime());
            });
            long later = Math.max(doneAt.get(0), doneAt.get(1)) - start[0];
            assertTrue(later >= SLOW.atomicRoundTripNanos() + SLOW.atomicUnitNanos(),
                    "the later compare-and-swap completed " + later + " ns after the start");
        }
    }

    @Test
    void shouldStartAnAtomicWhenItsWordsUnitIsFreeAndNotBefore() {
        try (SimFabric fabric = new SimFabric()) {
            SimNode node = (SimNode) fabric.open(0);
            assertEquals(1_000, node.reserveAtomicUnit(4096, 1_000, 500));
            assertEquals(1_500, node.reserveAtomicUnit(4096, 1_000, 500), "behind the first on the same word");
            assertEquals(1_000, node.reserveAtomicUnit(4104, 1_000, 500), "another word has its own unit");
            assertEquals(5_000, node.reserveAtomicUnit(4096, 5_000, 500), "the unit fell idle meanwhile");
        }
    }

    @Test
    void shouldRefuseACostWhenItIsNegative() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> new SimCostModel("bad", -1, 0, 0, 0, 0));
        assertTrue(e.getMessage().contains("readWriteRoundTripNanos") && e.getMessage().contains("-1"), e.getMessage());
        assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, -2, 0, 0, 0));
        assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, 0, -3, 0, 0));
        e = assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, 0, 0, -4, 0));
        assertTrue(e.getMessage().contains("picosPerByte") && e.getMessage().contains("-4"), e.getMessage());
        assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, 0, 0, 0, -5));
        assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", SimCostModel.MAX_NANOS + 1, 0, 0, 0, 0));
        assertThrows(BadArgumentException.class, () -> new SimCostModel(" ", 0, 0, 0, 0, 0));
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> SimOptions.defaults().withCostModel(null));
        assertEquals("costModel", npe.getMessage());
    }

    @Test
    void shouldFindAPresetByNameWhenTheNameIsKnownAndRefuseItWhenNot() {
        assertSame(SimCostModel.CONNECTX5, SimCostModel.byName("ConnectX5"));
        assertSame(SimCostModel.NONE, SimCostModel.byName("none"));
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> SimCostModel.byName("infiniband9000"));
        assertTrue(e.getMessage().contains("infiniband9000") && e.getMessage().contains("connectx5"), e.getMessage());
    }
}
