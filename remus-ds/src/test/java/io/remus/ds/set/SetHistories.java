package io.remus.ds.set;

import io.remus.ds.testing.Contention;
import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.SetSpec;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recorded histories of a set, checked against {@link SetSpec}: threads spread over the 3 nodes of a cluster,
 * each doing a seeded random mix of inserts, removes and contains over a few keys, with random yields
 * ({@link Contention#maybeYield()}), every operation recorded.
 */
final class SetHistories {
    static final int HOME = 1;
    static final int NODES = 3;
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    private SetHistories() {
    }

    /** Torn 8-byte stores, yields while tearing and inside NIC atomics, poison in freed blocks. */
    static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true).withYieldInsideNicAtomics(true)
                .withPoisonFreedBlocks(true);
    }

    static TestCluster cluster(Function<SimOptions, Fabric> make) {
        return new TestCluster(make, hostile(), NODES, b -> b.segmentSize(4 << 20));
    }

    /**
     * A fresh simulated cluster, {@link #hostile()}, whose segments cross a 4 GiB boundary where the seed's
     * history carves its nodes ({@link Straddles}): a pointer READ torn between two nodes points outside every
     * segment.
     */
    static TestCluster straddled(long seed) {
        return new TestCluster(SimFabric::new, Straddles.across(hostile(), seed, NODES), NODES, b -> b.segmentSize(4 << 20));
    }

    /** Epoch reclamation that frees during a short history: a pass every 4 nodes retired. */
    static EpochOptions epochs() {
        return EpochOptions.defaults().withBytes(4L * LazyListSet.NODE_BYTES, 64L * LazyListSet.NODE_BYTES);
    }

    /**
     * Runs one history on a fresh set and checks it.
     *
     * @param epochs whether the threads reclaim with {@link EpochReclaimer} (else {@link NeverReclaimer})
     * @return the checker's result (the test decides what it must be)
     */
    static CheckResult run(TestCluster c, SetMaker maker, long seed, int threads, int opsPerThread, int keys, boolean epochs)
            throws InterruptedException {
        return run(c, maker, seed, threads, opsPerThread, keys, epochs, new AtomicLong());
    }

    /** {@link #run}, adding to {@code freed} the bytes the threads' reclaimers freed. */
    static CheckResult run(TestCluster c, SetMaker maker, long seed, int threads, int opsPerThread, int keys, boolean epochs,
                           AtomicLong freed) throws InterruptedException {
        long ptr;
        try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            ptr = maker.create(t, r, HOME);
        }
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        c.runOnThreads(Contention.spread(threads, NODES), (index, t) -> {
            SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + index);
            History.Recorder rec = recorders[index];
            try (Reclaimer reclaimer = epochs ? new EpochReclaimer(t, t.allocator(), epochs()) : new NeverReclaimer(t);
                 RemoteSet set = maker.attach(t, reclaimer, ptr)) {
                for (int i = 0; i < opsPerThread; i++) {
                    Contention.maybeYield();
                    long key = 1 + rnd.nextInt(keys);
                    int pick = rnd.nextInt(10);
                    if (pick < 4) {
                        int op = rec.invoke(SetSpec.CONTAINS, key);
                        rec.respond(op, set.contains(key) ? 1 : 0);
                    } else if (pick < 7) {
                        int op = rec.invoke(SetSpec.ADD, key);
                        rec.respond(op, set.insert(key) ? 1 : 0);
                    } else {
                        int op = rec.invoke(SetSpec.REMOVE, key);
                        rec.respond(op, set.remove(key) ? 1 : 0);
                    }
                }
                set.close();
                reclaimer.reclaim();
                freed.addAndGet(reclaimer.retiredBytes() - reclaimer.unreclaimedBytes());
            }
        });
        List<Operation> operations = history.operations();
        assertEquals(threads * opsPerThread, operations.size(), maker.name() + ", seed " + seed + ": every operation recorded");
        return CHECKER.check(operations, new SetSpec());
    }

    /** {@link #run} and asserts a linearizable verdict (an unknown one, a budget that ran out, fails too). */
    static void assertLinearizable(TestCluster c, SetMaker maker, long seed, int threads, int opsPerThread, int keys,
                                   AtomicLong freed) throws InterruptedException {
        CheckResult result = run(c, maker, seed, threads, opsPerThread, keys, true, freed);
        assertTrue(result.verdict() != Verdict.UNKNOWN, maker.name() + ", seed " + seed + ": the checker ran out of its budget of "
                + CHECKER.budget() + " before deciding, which proves nothing: " + result);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), maker.name() + ", seed " + seed + ": " + result);
    }
}
