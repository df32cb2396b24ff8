package io.remus.ds.object;

import io.remus.ds.testing.Contention;
import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded histories of {@link RemoteCounter}, {@link RemoteMaxRegister} and {@link RemoteRegister}
 * check as linearizable with remus-check's {@link LinearizabilityChecker} against {@link CounterSpec},
 * {@link MaxRegisterSpec} and {@link RegisterSpec}. Each history comes from 3 or 4 threads on the 3 nodes
 * of a simulated cluster ({@link io.remus.core.sim.SimFabric}, with torn 8-byte stores, yields while
 * tearing and inside NIC atomics, as {@link WaitFreeContainerTestBase#hostile()}), each doing a seeded
 * random mix of the object's operations with random yields ({@link Contention#maybeYield()}), a few
 * hundred operations per history, over a handful of fixed seeds, on one cluster and on fresh clusters whose
 * segments cross a 4 GiB boundary ({@link Straddles}). A verdict other than linearizable fails,
 * an {@link Verdict#UNKNOWN} (the checker's budget ran out) included. Register writes are unique to the
 * write and carry two different words, so a torn, stale or freed (poisoned) value that a read returned
 * is no value of the specification's history.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ObjectHistoriesTest {
    private static final int HOME = WaitFreeContainerTestBase.HOME;
    private static final long[] SEEDS = {1, 2, 3, 4};
    private static final int OPS_PER_THREAD = 75;
    private static final int REGISTER_BYTES = 16;
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    /** One thread's operations on the object under test, recorded into {@code r}. */
    @FunctionalInterface
    private interface Work {
        void run(int index, ComputeThread t, History.Recorder r, SplittableRandom rnd);
    }

    private static int threads(long seed) {
        return 3 + (int) (seed % 2);
    }

    /**
     * Runs {@code threads} threads spread over the cluster's nodes, each doing {@code work} with its own
     * recorder and a random stream of the seed, and checks the recorded history against {@code spec}.
     */
    private static <S> void assertLinearizable(TestCluster c, String object, long seed, int threads, Specification<S> spec,
                                               Work work) throws InterruptedException {
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        c.runOnThreads(Contention.spread(threads, 3),
                (index, t) -> work.run(index, t, recorders[index], new SplittableRandom(seed * 1_000_003L + index)));
        List<Operation> operations = history.operations();
        assertEquals(threads * OPS_PER_THREAD, operations.size(), object + ", seed " + seed + ": every operation recorded");
        CheckResult result = CHECKER.check(operations, spec);
        assertTrue(result.verdict() != Verdict.UNKNOWN, object + ", seed " + seed + ": the checker ran out of its budget of "
                + CHECKER.budget() + " before deciding, which proves nothing; make the history smaller: " + result);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), object + ", seed " + seed + ": " + result);
    }

    /** A history on a cluster, for one seed. */
    @FunctionalInterface
    private interface SeedRun {
        void run(TestCluster c, long seed) throws InterruptedException;
    }

    /**
     * Runs {@code run} for every seed of {@link #SEEDS}: on one cluster with {@code options}; or, {@code straddled},
     * on a fresh cluster per seed whose segments cross a 4 GiB boundary where the seed's history allocates
     * ({@link Straddles}), so that a pointer READ torn between two blocks points outside every segment.
     */
    private static void overSeeds(SimOptions options, boolean straddled, SeedRun run) throws InterruptedException {
        if (!straddled) {
            try (TestCluster c = WaitFreeContainerTestBase.cluster(options)) {
                for (long seed : SEEDS) {
                    run.run(c, seed);
                }
            }
            return;
        }
        for (long seed : SEEDS) {
            try (TestCluster c = WaitFreeContainerTestBase.cluster(Straddles.across(options, seed, 3))) {
                run.run(c, seed);
            }
        }
    }

    @ParameterizedTest(name = "straddled {0}")
    @ValueSource(booleans = {false, true})
    void shouldRecordLinearizableHistoriesOfTheCounter(boolean straddled) throws InterruptedException {
        overSeeds(WaitFreeContainerTestBase.hostile(), straddled, (c, seed) -> {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteCounter.create(t, HOME, 0).ptr();
            }
            assertLinearizable(c, "RemoteCounter", seed, threads(seed), new CounterSpec(), (index, t, r, rnd) -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                for (int i = 0; i < OPS_PER_THREAD; i++) {
                    Contention.maybeYield();
                    if (rnd.nextBoolean()) {
                        long delta = 1 + rnd.nextInt(3);
                        int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                        r.respond(op, counter.fetchAndAdd(delta));
                    } else {
                        int op = r.invoke(CounterSpec.READ);
                        r.respond(op, counter.read());
                    }
                }
            });
        });
    }

    @ParameterizedTest(name = "straddled {0}")
    @ValueSource(booleans = {false, true})
    void shouldRecordLinearizableHistoriesOfTheMaxRegister(boolean straddled) throws InterruptedException {
        overSeeds(WaitFreeContainerTestBase.hostile(), straddled, (c, seed) -> {
            int threads = threads(seed);
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteMaxRegister.create(t, HOME, threads + 1, 0).ptr();
            }
            assertLinearizable(c, "RemoteMaxRegister", seed, threads, new MaxRegisterSpec(), (index, t, r, rnd) -> {
                RemoteMaxRegister register = RemoteMaxRegister.attach(t, ptr);
                for (int i = 0; i < OPS_PER_THREAD; i++) {
                    Contention.maybeYield();
                    if (rnd.nextBoolean()) {
                        // Rising with the operation's index, with overlap between threads, distinct per thread.
                        long v = (4L * i + rnd.nextInt(12)) * 8 + index + 1;
                        int op = r.invoke(MaxRegisterSpec.WRITE_MAX, v);
                        register.writeMax(v);
                        r.respond(op);
                    } else {
                        int op = r.invoke(MaxRegisterSpec.READ);
                        r.respond(op, register.read());
                    }
                }
            });
        });
    }

    @ParameterizedTest(name = "straddled {0}")
    @ValueSource(booleans = {false, true})
    void shouldRecordLinearizableHistoriesOfTheRegister(boolean straddled) throws InterruptedException {
        SimOptions options = WaitFreeContainerTestBase.hostile().withPoisonFreedBlocks(true);
        EpochOptions epoch = EpochOptions.defaults().withBytes(4 * REGISTER_BYTES, 64 * REGISTER_BYTES);
        overSeeds(options, straddled, (c, seed) -> {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = RemoteRegister.create(t, r, HOME, new byte[REGISTER_BYTES]).ptr();
            }
            assertLinearizable(c, "RemoteRegister", seed, threads(seed), new RegisterSpec(2), (index, t, r, rnd) -> {
                try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), epoch)) {
                    RemoteRegister register = RemoteRegister.attach(t, reclaimer, ptr);
                    MemorySegment value = MemorySegment.ofArray(new byte[REGISTER_BYTES]);
                    for (int i = 0; i < OPS_PER_THREAD; i++) {
                        Contention.maybeYield();
                        if (rnd.nextBoolean()) {
                            long first = ((index + 1L) << 32) | (i + 1);
                            long second = ~first;
                            value.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, first);
                            value.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, second);
                            int op = r.invoke(RegisterSpec.WRITE, first, second);
                            register.write(value);
                            r.respond(op);
                        } else {
                            int op = r.invoke(RegisterSpec.READ);
                            register.read(value);
                            r.respond(op, value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), value.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
                        }
                    }
                }
            });
        });
    }
}
