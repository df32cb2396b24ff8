package io.remus.ds.object;

import io.remus.ds.testing.Counts;
import io.remus.ds.testing.Contention;
import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Wait-freedom of {@link WaitFreeObject} shown on the simulator: one thread is frozen
 * ({@link SimFabric#freeze}) inside a put on a {@link WaitFreeQueue} or {@link WaitFreeStack}, and four
 * live threads on two other nodes keep completing operations, each within the construction's per-call
 * bound; the frozen put is applied by the live threads' help when it was announced before the freeze
 * (and not at all when it was frozen before its announcement); released, the put returns, and the
 * value is in the container exactly once; the whole history, the frozen put included, checks as
 * linearizable.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitFreeFrozenThreadTest {
    private static final int HOME = 1;
    private static final int LIVE = 4;
    private static final int OPS = 200;
    private static final int[] LIVE_NODES = {0, 2, 0, 2};
    private static final long FROZEN_VALUE = 42;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(90);

    /**
     * Where the put is frozen: before the work request that follows the first {@code skip} work requests
     * of {@code counted} (of any operation when null) that it applies.
     */
    enum FreezePoint {
        /** The record is written, the sequence number not yet raised: nobody can see the put. */
        BEFORE_ANNOUNCEMENT(null, 1, Opcode.COMPARE_AND_SWAP, false),
        /** Announced, before reading the state: the live threads must apply it. */
        AFTER_ANNOUNCEMENT(null, 3, Opcode.READ, true),
        /** Announced, its new state written out of place, before its compare-and-swap: released, that fails on a newer state. */
        BEFORE_PUBLISHING(Opcode.WRITE, 2, Opcode.COMPARE_AND_SWAP, true);

        final Opcode counted;
        final int skip;
        final Opcode frozenAt;
        final boolean helped;

        FreezePoint(Opcode counted, int skip, Opcode frozenAt, boolean helped) {
            this.counted = counted;
            this.skip = skip;
            this.frozenAt = frozenAt;
            this.helped = helped;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (WaitFreeContainer.Kind kind : List.of(WaitFreeContainer.QUEUE, WaitFreeContainer.STACK)) {
            for (FreezePoint p : FreezePoint.values()) {
                all.add(Arguments.of(kind, p));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} frozen {1}")
    @MethodSource("cases")
    void shouldKeepTheOthersWithinTheirBoundWhileAPutIsFrozenAndApplyItOnce(WaitFreeContainer.Kind kind, FreezePoint point)
            throws Exception {
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder frozenRecorder = history.recorder(LIVE);
        History.Recorder[] recorders = new History.Recorder[LIVE];
        for (int i = 0; i < LIVE; i++) {
            recorders[i] = history.recorder(i);
        }
        int elements = 2 * LIVE + 4;
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(16 << 20))) {
            ComputeThread main = c.thread(2);
            NeverReclaimer mainReclaimer = new NeverReclaimer(main);
            WaitFreeContainer creator = kind.create(main, mainReclaimer, HOME, LIVE + 2, elements, WaitFreeObject.Helping.SEQUENCED);
            long ptr = creator.ptr();

            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            int[] frozenSlot = new int[1];
            Thread frozen = new Thread(() -> {
                try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                    WaitFreeContainer box = kind.attach(t, r, ptr, WaitFreeObject.Helping.SEQUENCED);
                    frozenSlot[0] = box.object().slot();
                    ready.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS), "told to go");
                    int op = frozenRecorder.invoke(BoundedContainerSpec.PUT, FROZEN_VALUE);
                    boolean ok = box.put(FROZEN_VALUE);
                    frozenRecorder.respond(op, ok ? 1 : 0);
                    done.complete(ok);
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "frozen@node0");
            frozen.setDaemon(true);
            frozen.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertFalse(done.isCompletedExceptionally(), () -> "the frozen thread's setup failed: " + done);
            SimFabric sim = (SimFabric) c.fabric();
            SimFreeze freeze = point.counted == null ? sim.freeze(frozen, point.skip, MAX_FROZEN)
                    : sim.freeze(frozen, point.counted, point.skip, MAX_FROZEN);
            go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the put reached the work request it is frozen before");
            assertEquals(point.frozenAt, freeze.frozenAt(), "frozen before the expected work request");

            ConcurrentLinkedQueue<Long> taken = new ConcurrentLinkedQueue<>();
            c.runOnThreads(LIVE_NODES, (index, t) -> {
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    WaitFreeContainer box = kind.attach(t, reclaimer, ptr, WaitFreeObject.Helping.SEQUENCED);
                    History.Recorder r = recorders[index];
                    for (int i = 0; i < OPS; i++) {
                        Contention.maybeYield();
                        WaitFreeObject<?> o = box.object();
                        long allocRt = o.allocatorRoundTrips();
                        long allocCas = o.allocatorCompareAndSwaps();
                        Counts before = Counts.of(t);
                        if (i % 2 == 0) {
                            long v = (index + 1L) * 1_000_000L + i;
                            int op = r.invoke(BoundedContainerSpec.PUT, v);
                            boolean ok = box.put(v);
                            r.respond(op, ok ? 1 : 0);
                            assertTrue(ok, "a put with at most " + (LIVE + 1) + " elements in the container fits");
                        } else {
                            int op = r.invoke(BoundedContainerSpec.TAKE);
                            if (box.take()) {
                                r.respond(op, box.taken());
                                taken.add(box.taken());
                            } else {
                                r.respond(op);
                            }
                        }
                        Counts w = before.since(t);
                        long ownRt = w.roundTrips() - (o.allocatorRoundTrips() - allocRt);
                        long ownCas = w.compareAndSwaps() - (o.allocatorCompareAndSwaps() - allocCas);
                        assertTrue(ownRt <= 6 && ownCas <= 3, "a live call within 6 round trips and 3 compare-and-swaps"
                                + " while one thread is frozen: " + w);
                    }
                }
            });
            assertTrue(freeze.isFrozen(), "the put stayed frozen while the others ran");
            assertFalse(done.isDone(), "the frozen put did not return meanwhile");
            long appliedWhileFrozen = creator.object().applied(frozenSlot[0]);
            long[] contentsWhileFrozen = creator.contents();
            long seenWhileFrozen = count(taken, contentsWhileFrozen);
            if (point.helped) {
                assertEquals(1, appliedWhileFrozen, "the live threads applied the announced put for the frozen thread");
                assertEquals(1, seenWhileFrozen, "its value went in once, while its thread was frozen");
            } else {
                assertEquals(0, appliedWhileFrozen, "a put frozen before its announcement is invisible");
                assertEquals(0, seenWhileFrozen, "its value is nowhere yet");
            }

            freeze.release();
            assertTrue(done.get(WAIT.toSeconds(), TimeUnit.SECONDS), "released, the put returns success");
            assertFalse(freeze.expired(), "released by the test, not by the freeze's deadline");
            assertEquals(1, creator.object().applied(frozenSlot[0]), "the frozen put took effect exactly once");
            assertEquals(1, count(taken, creator.contents()), "its value is in the container, or was taken, exactly once");
            main.close();
        }
        new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)))
                .check(history.operations(), new BoundedContainerSpec(kind.fifo(), elements)).assertLinearizable();
    }

    private static long count(ConcurrentLinkedQueue<Long> taken, long[] contents) {
        long n = taken.stream().filter(v -> v == FROZEN_VALUE).count();
        for (long v : contents) {
            if (v == FROZEN_VALUE) {
                n++;
            }
        }
        return n;
    }
}
