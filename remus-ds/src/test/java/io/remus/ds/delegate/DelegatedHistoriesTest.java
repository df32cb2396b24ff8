package io.remus.ds.delegate;

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
import io.remus.check.spec.RegisterSpec;
import io.remus.core.WriteOrder;
import io.remus.core.config.NodeRange;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded histories of a delegated counter and a delegated one-word register check as linearizable
 * with remus-check's {@link LinearizabilityChecker} against {@link CounterSpec} and {@link RegisterSpec};
 * a deliberately broken trustee ({@link TwiceRunningTrustee}) gives a counter history the checker
 * rejects. Each history comes from 3 or 4 client threads on the 3 nodes of a simulated cluster with
 * torn 8-byte stores and loads, yields while tearing and inside NIC atomics, the trustee serving on node
 * 1 (in one test node 2 has no memory, so its clients poll their responses in the trustee's memory by
 * RDMA READ), each client doing a seeded random mix of synchronous and asynchronous operations with random
 * yields, a few hundred operations per history, over fixed seeds. Register writes are unique, so a
 * stale or torn answer is no value of the specification's history.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelegatedHistoriesTest {
    private static final int TRUSTEE_NODE = 1;
    private static final long[] SEEDS = {1, 2, 3, 4, 5, 6, 7, 8};
    private static final int OPS_PER_THREAD = 100;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    private static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true)
                .withYieldInsideNicAtomics(true);
    }

    /** @param bare whether node 2 has no memory, so that its clients poll responses in the trustee's memory */
    TestCluster cluster(boolean bare) {
        return new TestCluster(SimFabric::new, hostile(), 3, b -> b.segmentSize(4 << 20).memoryNodes(new NodeRange(0, bare ? 1 : 2)));
    }

    /** @return the seeds, one history each */
    long[] seeds() {
        return SEEDS;
    }

    /** @return each client's operations per history */
    int opsPerThread() {
        return OPS_PER_THREAD;
    }

    /** One client's operations on the cell under test, recorded into {@code r}. */
    @FunctionalInterface
    private interface Work {
        void run(int index, Trust<Delegated.Cell> cell, History.Recorder r, SplittableRandom rnd);
    }

    private <S> CheckResult history(TrusteeRunner.Maker maker, long seed, Specification<S> spec, Work work) throws Exception {
        return history(maker, false, seed, spec, work);
    }

    private <S> CheckResult history(TrusteeRunner.Maker maker, boolean bare, long seed, Specification<S> spec, Work work)
            throws Exception {
        return history(maker, bare, false, seed, spec, work);
    }

    /**
     * @param straddled on the simulator with segments across a 4 GiB boundary where the seed's history allocates
     *                  ({@link Straddles}), instead of {@link #cluster}
     */
    private <S> CheckResult history(TrusteeRunner.Maker maker, boolean bare, boolean straddled, long seed, Specification<S> spec,
                                    Work work) throws Exception {
        return history(maker, bare, straddled, seed, spec, work, WriteOrder.ONE_DOORBELL);
    }

    /** @param clientOrder how the clients order their requests' WRITEs */
    private <S> CheckResult history(TrusteeRunner.Maker maker, boolean bare, boolean straddled, long seed, Specification<S> spec,
                                    Work work, WriteOrder clientOrder) throws Exception {
        int threads = 3 + (int) (seed % 2);
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        try (TestCluster c = straddled ? new TestCluster(SimFabric::new, Straddles.across(hostile(), seed, 3), 3,
                b -> b.segmentSize(4 << 20)) : cluster(bare); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, threads, 2, 1, maker)) {
            long ptr = runner.ptr();
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                Trust<Delegated.Cell> cell = TrusteeClient.connect(t, ptr, clientOrder).trust(0);
                work.run(index, cell, recorders[index], new SplittableRandom(seed * 1_000_003L + index));
            });
        }
        List<Operation> operations = history.operations();
        assertEquals(threads * opsPerThread(), operations.size(), "seed " + seed + ": every operation recorded");
        CheckResult result = CHECKER.check(operations, spec);
        assertTrue(result.verdict() != Verdict.UNKNOWN, "seed " + seed + ": the checker ran out of its budget of "
                + CHECKER.budget() + " before deciding, which proves nothing: " + result);
        return result;
    }

    /** Fetch-and-adds and reads, every third operation through {@link Trust#applyAsync}. */
    private void counterWork(int index, Trust<Delegated.Cell> cell, History.Recorder r, SplittableRandom rnd) {
        for (int i = 0; i < opsPerThread(); i++) {
            Contention.maybeYield();
            boolean async = rnd.nextInt(3) == 0;
            if (rnd.nextBoolean()) {
                long delta = 1 + rnd.nextInt(3);
                int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                r.respond(op, async ? cell.applyAsync(Delegated.FETCH_AND_ADD, delta).await(PATIENCE)
                        : cell.apply(Delegated.FETCH_AND_ADD, delta, PATIENCE));
            } else {
                int op = r.invoke(CounterSpec.READ);
                r.respond(op, async ? cell.applyAsync(Delegated.READ, 0).await(PATIENCE) : cell.apply(Delegated.READ, 0, PATIENCE));
            }
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesOfADelegatedCounter() throws Exception {
        for (long seed : seeds()) {
            CheckResult result = history(Trustee::create, seed, new CounterSpec(), this::counterWork);
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesOfADelegatedCounterWithTheCompletionOrderOnBothSides() throws Exception {
        for (long seed : seeds()) {
            CheckResult result = history((t, maxClients, slots) -> Trustee.create(t, maxClients, slots, 0, WriteOrder.COMPLETION),
                    false, false, seed, new CounterSpec(), this::counterWork, WriteOrder.COMPLETION);
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesOfADelegatedCounterWhenSegmentsCrossA4GiBBoundary() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            CheckResult result = history(Trustee::create, false, true, seed, new CounterSpec(), this::counterWork);
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesOfADelegatedCounterWhenAClientsNodeHasNoMemory() throws Exception {
        for (long seed : seeds()) {
            CheckResult result = history(Trustee::create, true, seed, new CounterSpec(), this::counterWork);
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesOfADelegatedRegister() throws Exception {
        for (long seed : seeds()) {
            CheckResult result = history(Trustee::create, seed, new RegisterSpec(1), (index, cell, r, rnd) -> {
                for (int i = 0; i < opsPerThread(); i++) {
                    Contention.maybeYield();
                    if (rnd.nextBoolean()) {
                        long v = ((index + 1L) << 40) | ((i + 1L) << 8) | 0x5A;
                        int op = r.invoke(RegisterSpec.WRITE, v);
                        cell.apply(Delegated.WRITE, v, PATIENCE);
                        r.respond(op);
                    } else {
                        int op = r.invoke(RegisterSpec.READ);
                        r.respond(op, cell.apply(Delegated.READ, 0, PATIENCE));
                    }
                }
            });
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + ": " + result);
        }
    }

    @Test
    void shouldCatchATrusteeThatRunsRequestsTwiceWhenCheckingItsCounterHistory() throws Exception {
        int caught = 0;
        for (long seed : seeds()) {
            CheckResult result = history(TwiceRunningTrustee::make, seed, new CounterSpec(), this::counterWork);
            if (result.verdict() == Verdict.NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertEquals(seeds().length, caught, "every history of the broken trustee fails the check");
    }
}
