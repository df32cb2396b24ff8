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
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void shouldServeRequestsOneAfterAnotherWhenTheNodesNicHasAMessageRate() {
        try (SimFabric fabric = new SimFabric()) {
            SimNode node = (SimNode) fabric.open(0);
            assertEquals(1_000, node.reserveNic(1_000, 4_651));
            assertEquals(1_005, node.reserveNic(1_000, 4_651), "behind the first: 4.651 ns rounded up");
            assertEquals(1_010, node.reserveNic(1_000, 4_651), "9.302 ns after the first, rounded up");
            assertEquals(1_014, node.reserveNic(1_000, 4_651), "13.953 ns: the picoseconds are kept, not rounded");
            assertEquals(9_000, node.reserveNic(9_000, 4_651), "the NIC fell idle meanwhile");
            assertEquals(1_000, node.reserveAtomicEngine(1_000, 370_370), "the atomic engine is its own stage");
            assertEquals(1_371, node.reserveAtomicEngine(1_000, 370_370), "behind the first atomic, on any word");
        }
    }

    @Test
    void shouldExecuteReadsToOneNodeOneNicTimeApartWhenTheModelHasAMessageRate() {
        long nicPicos = SimCostModel.MAX_NIC_PICOS;
        SimCostModel model = new SimCostModel("rate", 0, 0, 0, 0, 0, nicPicos, 0);
        assertFalse(model.isFree());
        int reads = 10;
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(model), false)) {
            WorkRequests wrs = new WorkRequests(reads);
            for (int i = 0; i < reads; i++) {
                wrs.addRead(i, p.local.address() + 8L * i, 8, p.local.lkey(), p.remote.address() + 8L * i, p.remote.rkey(),
                        WorkRequests.SIGNALED);
            }
            Completions out = new Completions(reads);
            long start = System.nanoTime();
            p.qp.post(wrs);
            int seen = 0;
            while (seen < reads) {
                int n = CompletionPolls.pollSome(p.cq, out, WAIT);
                for (int i = 0; i < n; i++) {
                    assertEquals(CompletionStatus.SUCCESS, out.status(i));
                }
                seen += n;
            }
            long took = System.nanoTime() - start;
            long modelled = (reads - 1) * nicPicos / 1000;
            assertTrue(took >= modelled, reads + " READs took " + took + " ns, the NIC serves them in " + modelled);
        }
    }

    @Test
    void shouldQueueAtomicsOnManyWordsBehindTheNicsAtomicEngineWhenTheModelHasOne() {
        long enginePicos = SimCostModel.MAX_NIC_PICOS;
        SimCostModel model = new SimCostModel("engine", 0, 0, 0, 0, 0, 0, enginePicos);
        int atomics = 10;
        try (Pair p = Pair.open(SimOptions.defaults().withCostModel(model), false)) {
            WorkRequests wrs = new WorkRequests(atomics);
            for (int i = 0; i < atomics; i++) {
                wrs.addFetchAndAdd(i, p.local.address() + 8L * i, p.local.lkey(), p.remote.address() + 64L * i,
                        p.remote.rkey(), 1, WorkRequests.SIGNALED);
            }
            Completions out = new Completions(atomics);
            long start = System.nanoTime();
            p.qp.post(wrs);
            int seen = 0;
            while (seen < atomics) {
                seen += CompletionPolls.pollSome(p.cq, out, WAIT);
            }
            long took = System.nanoTime() - start;
            long modelled = (atomics - 1) * enginePicos / 1000;
            assertTrue(took >= modelled, atomics + " atomics on as many words took " + took + " ns, the engine "
                    + modelled);
            for (int i = 0; i < atomics; i++) {
                assertEquals(1L, p.remote.segment().get(ValueLayout.JAVA_LONG, 64L * i), "word " + i);
            }
        }
    }

    @Test
    void shouldDescribeTheNicRatesWhenTheModelHasThemAndNotOtherwise() {
        assertEquals("connectx5: READ/WRITE round trip 2000 ns, atomic 2500 ns holding its word's unit 2500 ns, 80 ps/byte",
                SimCostModel.CONNECTX5.describe());
        assertEquals("connectx3: READ/WRITE round trip 2000 ns, atomic 2370 ns holding its word's unit 370 ns, 143 ps/byte,"
                + " NIC 38462 ps/request, NIC atomics 370370 ps each", SimCostModel.CONNECTX3.describe());
        SimCostModel six = new SimCostModel("six", 1, 2, 3, 4, 5);
        assertEquals(0, six.nicRequestPicos());
        assertEquals(0, six.nicAtomicPicos());
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
        e = assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, 0, 0, 0, 0, -6, 0));
        assertTrue(e.getMessage().contains("nicRequestPicos") && e.getMessage().contains("-6"), e.getMessage());
        e = assertThrows(BadArgumentException.class, () -> new SimCostModel("bad", 0, 0, 0, 0, 0, 0, -7));
        assertTrue(e.getMessage().contains("nicAtomicPicos") && e.getMessage().contains("-7"), e.getMessage());
        assertThrows(BadArgumentException.class,
                () -> new SimCostModel("bad", 0, 0, 0, 0, 0, SimCostModel.MAX_NIC_PICOS + 1, 0));
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
