package io.remus.ds.object;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Contention;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link WaitFreeQueue} and {@link WaitFreeStack} share through {@link WaitFreeObject}: recorded
 * histories over several threads on several nodes check as linearizable (remus-check's checker) and
 * apply every operation exactly once, over many seeds; and the two deliberately broken variants of the
 * construction are caught (without sequence numbers by the checker and the exactly-once check, without
 * helping by the bound of {@link WaitFreeContainerBoundTest}). One subclass per container, which also runs the
 * object contract ({@link ObjectContractTest}).
 *
 * @param <C> the container's handle type
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
abstract class WaitFreeContainerTestBase<C extends WaitFreeWordContainer> extends ObjectContractTest<C> {
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    abstract WaitFreeContainer.Kind kind();

    @Override
    long ptr(C handle) {
        return handle.ptr();
    }

    @Override
    void destroy(C handle) {
        handle.destroy();
    }

    static TestCluster cluster(SimOptions options) {
        return new TestCluster(SimFabric::new, options, 3, b -> b.segmentSize(32 << 20));
    }

    static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true).withYieldInsideNicAtomics(true);
    }

    private BoundedContainerSpec spec(int elements) {
        return new BoundedContainerSpec(kind().fifo(), elements);
    }

    /** What one recorded run produced. */
    record Outcome(List<Operation> history, List<Long> putValues, List<Long> takenValues, long[] remaining,
                   long[] announced, long[] applied) {
        /** Every operation took effect once: per slot, and by the values that went in and came out. */
        void assertExactlyOnce() {
            assertEquals(Arrays.toString(announced), Arrays.toString(applied),
                    "every handle's announced operations were applied exactly once (announced vs applied per slot)");
            Map<Long, Integer> out = new HashMap<>();
            for (long v : takenValues) {
                out.merge(v, 1, Integer::sum);
            }
            for (long v : remaining) {
                out.merge(v, 1, Integer::sum);
            }
            Map<Long, Integer> in = new HashMap<>();
            for (long v : putValues) {
                in.merge(v, 1, Integer::sum);
            }
            assertEquals(in, out, "every value put once came out (taken or remaining) exactly once");
        }

        boolean exactlyOnce() {
            try {
                assertExactlyOnce();
                return true;
            } catch (AssertionError e) {
                return false;
            }
        }
    }

    /**
     * Runs {@code threads} threads on nodes 0, 2, 1, 0, 2, ... (node 1 holds the container), each doing
     * {@code ops} random puts (of values unique to the put) and takes with random yields, and records the
     * history.
     */
    Outcome run(TestCluster c, int threads, int ops, int elements, long seed, boolean epoch, WaitFreeObject.Helping helping)
            throws InterruptedException {
        long ptr;
        WaitFreeContainer creator;
        ComputeThread main = c.thread(0);
        NeverReclaimer mainReclaimer = new NeverReclaimer(main);
        creator = kind().create(main, mainReclaimer, HOME, threads + 1, elements, helping);
        ptr = creator.ptr();
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        ConcurrentLinkedQueue<Long> put = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> taken = new ConcurrentLinkedQueue<>();
        Map<Integer, Long> announced = new ConcurrentHashMap<>();
        int[] nodes = new int[threads];
        for (int i = 0; i < threads; i++) {
            nodes[i] = new int[] {0, 2, 1}[i % 3];
        }
        c.runOnThreads(nodes, (index, t) -> {
            try (Reclaimer reclaimer = epoch ? new EpochReclaimer(t, t.allocator()) : new NeverReclaimer(t)) {
                WaitFreeContainer box = kind().attach(t, reclaimer, ptr, helping);
                History.Recorder r = recorders[index];
                SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + index);
                for (int i = 0; i < ops; i++) {
                    Contention.maybeYield();
                    if (rnd.nextBoolean()) {
                        long v = (index + 1L) * 1_000_000L + i;
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        boolean ok = box.put(v);
                        r.respond(op, ok ? 1 : 0);
                        if (ok) {
                            put.add(v);
                        }
                    } else {
                        int op = r.invoke(BoundedContainerSpec.TAKE);
                        if (box.take()) {
                            r.respond(op, box.taken());
                            taken.add(box.taken());
                        } else {
                            r.respond(op);
                        }
                    }
                    if (epoch && i % 16 == 15) {
                        reclaimer.reclaim();
                    }
                }
                announced.put(box.object().slot(), box.object().announced());
            }
        });
        long[] announcedBySlot = new long[threads + 1];
        long[] appliedBySlot = new long[threads + 1];
        for (int s = 0; s <= threads; s++) {
            announcedBySlot[s] = announced.getOrDefault(s, 0L);
            appliedBySlot[s] = creator.object().applied(s);
        }
        long[] remaining = creator.contents();
        main.close();
        return new Outcome(history.operations(), new ArrayList<>(put), new ArrayList<>(taken), remaining, announcedBySlot,
                appliedBySlot);
    }

    /**
     * On a fresh cluster whose segments cross a 4 GiB boundary among the state blocks ({@link Straddles}), a
     * state pointer READ torn between two blocks points outside every segment: it is read again, never
     * followed, and the histories still check.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void shouldCheckAsLinearizableWhenTheHomeSegmentCrossesA4GiBBoundary(long seed) throws InterruptedException {
        try (TestCluster c = cluster(Straddles.across(hostile(), seed, 3))) {
            int elements = 2 + (int) (seed % 3);
            int threads = 3 + (int) (seed % 4);
            Outcome o = run(c, threads, 60, elements, seed, seed % 2 == 1, WaitFreeObject.Helping.SEQUENCED);
            CheckResult result = CHECKER.check(o.history(), spec(elements));
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
            o.assertExactlyOnce();
        }
    }

    @Test
    void shouldCheckAsLinearizableAndApplyEveryOperationOnceOverManySeeds() throws InterruptedException {
        int seeds = 30;
        try (TestCluster c = cluster(hostile())) {
            for (long seed = 1; seed <= seeds; seed++) {
                int elements = 2 + (int) (seed % 3);
                int threads = 3 + (int) (seed % 4);
                Outcome o = run(c, threads, 60, elements, seed, seed % 2 == 1, WaitFreeObject.Helping.SEQUENCED);
                CheckResult result = CHECKER.check(o.history(), spec(elements));
                assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
                o.assertExactlyOnce();
                assertFalse(o.putValues().isEmpty() || o.takenValues().isEmpty(), "seed " + seed + " put and took values");
            }
        }
    }

    @Test
    void shouldBeCaughtByTheCheckerWhenHelpersApplyOperationsWithoutSequenceNumbers() throws InterruptedException {
        int caughtByChecker = 0;
        int caughtByExactlyOnce = 0;
        int seeds = 5;
        try (TestCluster c = cluster(hostile())) {
            for (long seed = 1; seed <= seeds; seed++) {
                Outcome o = run(c, 3, 30, 3, seed, false, WaitFreeObject.Helping.UNSEQUENCED);
                CheckResult result = CHECKER.check(o.history(), spec(3));
                boolean byChecker = result.verdict() == Verdict.NOT_LINEARIZABLE;
                boolean byExactlyOnce = !o.exactlyOnce();
                assertTrue(byChecker || byExactlyOnce, "seed " + seed + ": the unsequenced variant passed both checks: " + result);
                caughtByChecker += byChecker ? 1 : 0;
                caughtByExactlyOnce += byExactlyOnce ? 1 : 0;
            }
        }
        assertTrue(caughtByChecker > 0, "the checker found a violation of the unsequenced variant");
        assertTrue(caughtByExactlyOnce > 0, "the exactly-once check caught the unsequenced variant");
    }

    @Test
    void shouldExceedTheBoundWithoutHelping() throws InterruptedException {
        int threads = 6;
        AtomicLong worst = new AtomicLong();
        try (TestCluster c = cluster(hostile().withExecutionLatencyNanos(20_000))) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = kind().create(t, r, HOME, threads + 1, 4, WaitFreeObject.Helping.OWN_ONLY).ptr();
            }
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    WaitFreeContainer box = kind().attach(t, reclaimer, ptr, WaitFreeObject.Helping.OWN_ONLY);
                    for (int i = 0; i < 3000 && worst.get() <= 3; i++) {
                        Contention.maybeYield();
                        long v = index * 10_000L + i;
                        WaitFreeContainerBoundTest.Call call =
                                WaitFreeContainerBoundTest.measure(box, t, i % 2 == 0 ? () -> box.put(v) : box::take);
                        worst.accumulateAndGet(call.ownCompareAndSwaps(), Math::max);
                    }
                }
            });
        }
        assertTrue(worst.get() > 3, "without helping some call needed more than the announcement and 2 publishing"
                + " compare-and-swaps (worst " + worst.get() + "): the bound test catches it");
    }

    @Test
    void shouldRefuseBadArgumentsAndAHandleBeyondTheCapacity() {
        try (TestCluster c = cluster(SimOptions.defaults()); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            assertRefused(() -> kind().create(a, ra, HOME, 0, 4, WaitFreeObject.Helping.SEQUENCED));
            assertRefused(() -> kind().create(a, ra, HOME, 2, 0, WaitFreeObject.Helping.SEQUENCED));
            assertRefused(() -> kind().create(a, ra, HOME, 2, 1 << 20, WaitFreeObject.Helping.SEQUENCED));
            assertRefused(() -> kind().attach(a, ra, 0, WaitFreeObject.Helping.SEQUENCED));
            WaitFreeContainer box = kind().create(a, ra, HOME, 2, 4, WaitFreeObject.Helping.SEQUENCED);
            kind().attach(b, rb, box.ptr(), WaitFreeObject.Helping.SEQUENCED);
            assertThrows(AllocationExhaustedException.class, () -> kind().attach(b, rb, box.ptr(), WaitFreeObject.Helping.SEQUENCED));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNameTheHandlesBoundAndTheOpenHandlesWhenOneHandleTooManyAttaches(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            WaitFreeContainer creator = kind().create(a, ra, HOME, 3, 4, WaitFreeObject.Helping.SEQUENCED);
            WaitFreeContainer second = kind().attach(b, rb, creator.ptr(), WaitFreeObject.Helping.SEQUENCED);
            kind().attach(b, rb, creator.ptr(), WaitFreeObject.Helping.SEQUENCED).object().close();
            AllocationExhaustedException e = assertThrows(AllocationExhaustedException.class,
                    () -> kind().attach(b, rb, creator.ptr(), WaitFreeObject.Helping.SEQUENCED),
                    "handles = 3 counts the creator's handle and the closed one: a fourth attach finds no slot");
            String message = e.getMessage();
            assertTrue(message.contains("handles = 3"), "names the parameter and the value given: " + message);
            assertTrue(message.contains("handles open now: 2"), "says how many handles are open: " + message);
            assertTrue(message.contains("the creator's included"), "says how to size it: " + message);
            assertTrue(second.put(7), "the handles already attached go on working");
            second.object().close();
            creator.object().destroy();
        }
    }

    static void assertRefused(Runnable r) {
        assertThrows(BadArgumentException.class, r::run);
    }
}
