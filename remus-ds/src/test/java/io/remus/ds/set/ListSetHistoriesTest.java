package io.remus.ds.set;

import io.remus.alock.kind.LockKind;
import io.remus.check.CheckResult;
import io.remus.check.Verdict;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded histories of {@link LockFreeListSet}, {@link LazyListSet} (spin, ALock and MCS locks) and
 * {@link LockFreeSkipListSet} (its default levels, and one level) check
 * as linearizable against {@code SetSpec}, on a simulated cluster with torn 8-byte stores, yields inside
 * transfers and NIC atomics, poison in freed blocks and epoch reclamation freeing during the run, over many
 * seeds ({@link SetHistories}), and on clusters whose segments cross a 4 GiB boundary among the set's nodes, so that a
 * pointer READ torn between two nodes points outside every segment ({@link SetHistories#straddled}); and the checker catches each set's deliberately broken twin
 * ({@link UnvalidatedLazyListSet}, {@link UnmarkedUnlinkListSet}, {@link BrokenSkipListSet}) on the same workload, so that these tests
 * can fail.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ListSetHistoriesTest {
    private static final long[] SEEDS = {1, 2, 3, 4, 5, 6, 7, 8};
    /** Seeds run beyond {@link #SEEDS} while no removed node has been freed yet, at most. */
    private static final int EXTRA_SEEDS = 16;
    private static final int OPS_PER_THREAD = 100;
    private static final int KEYS = 5;
    /** Seeds the broken twins get to show a non-linearizable history. */
    private static final int BROKEN_SEEDS = 30;
    /** The skip list's extra histories (4 levels): more seeds, and more keys so that its upper levels hold several nodes. */
    private static final int SKIP_SEEDS = 24;
    private static final int SKIP_KEYS = 10;
    /**
     * Seeds of the histories on a cluster whose segments cross a 4 GiB boundary among the set's nodes, where a
     * pointer READ torn between two nodes points outside every segment (one fresh cluster per seed).
     */
    private static final long[] STRADDLE_SEEDS = {1, 4, 7, 10};

    private static int threads(long seed) {
        return 3 + (int) (seed % 2);
    }

    private static void assertLinearizableOverSeeds(SetMaker maker) throws InterruptedException {
        AtomicLong freed = new AtomicLong();
        try (TestCluster c = SetHistories.cluster(SimFabric::new)) {
            for (long seed : SEEDS) {
                SetHistories.assertLinearizable(c, maker, seed, threads(seed), OPS_PER_THREAD, KEYS, freed);
            }
            // a reclaimer pass that read a table word torn does not advance the epoch: a few more seeds until one frees
            for (long seed = SEEDS.length + 1; freed.get() == 0 && seed <= SEEDS.length + EXTRA_SEEDS; seed++) {
                SetHistories.assertLinearizable(c, maker, seed, threads(seed), OPS_PER_THREAD, KEYS, freed);
            }
        }
        assertTrue(freed.get() > 0, maker.name() + ": removed nodes were freed while the histories ran");
    }

    private static void assertCaught(SetMaker broken) throws InterruptedException {
        try (TestCluster c = SetHistories.cluster(SimFabric::new)) {
            for (long seed = 1; seed <= BROKEN_SEEDS; seed++) {
                CheckResult result = SetHistories.run(c, broken, seed, 4, OPS_PER_THREAD, KEYS, false);
                if (result.verdict() == Verdict.NOT_LINEARIZABLE) {
                    System.out.println(broken.name() + ": caught at seed " + seed);
                    return;
                }
            }
        }
        throw new AssertionError(broken.name() + ": no history of " + BROKEN_SEEDS + " seeds was found not linearizable");
    }

    /** Every set, on each of {@link #STRADDLE_SEEDS}. */
    static Stream<Arguments> straddledSets() {
        List<Arguments> out = new ArrayList<>();
        for (SetMaker maker : new SetMaker[]{SetMaker.lockFree(), SetMaker.skipList(), SetMaker.skipList(1),
                SetMaker.lazy(LockKind.SPIN), SetMaker.lazy(LockKind.ALOCK), SetMaker.lazy(LockKind.MCS)}) {
            for (long seed : STRADDLE_SEEDS) {
                out.add(Arguments.of(Named.of(maker.name(), maker), seed));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("straddledSets")
    void shouldRecordLinearizableHistoriesWhenTheHomeSegmentCrossesA4GiBBoundary(SetMaker maker, long seed)
            throws InterruptedException {
        try (TestCluster c = SetHistories.straddled(seed)) {
            SetHistories.assertLinearizable(c, maker, seed, threads(seed), OPS_PER_THREAD, KEYS, new AtomicLong());
        }
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenLockFreeListSetRunsUnderContention() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.lockFree());
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenLockFreeSkipListSetRunsUnderContention() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.skipList());
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenTheSkipListRunsOverMoreKeysAndSeeds() throws InterruptedException {
        AtomicLong freed = new AtomicLong();
        try (TestCluster c = SetHistories.cluster(SimFabric::new)) {
            for (long seed = 100; seed < 100 + SKIP_SEEDS; seed++) {
                SetHistories.assertLinearizable(c, SetMaker.skipList(4), seed, threads(seed), OPS_PER_THREAD, SKIP_KEYS, freed);
            }
        }
        assertTrue(freed.get() > 0, "removed nodes were freed while the histories ran");
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenTheSkipListHasOneLevel() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.skipList(1));
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenLazyListSetUsesSpinLocks() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.lazy(LockKind.SPIN));
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenLazyListSetUsesALocks() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.lazy(LockKind.ALOCK));
    }

    @Test
    void shouldRecordLinearizableHistoriesWhenLazyListSetUsesMcsLocks() throws InterruptedException {
        assertLinearizableOverSeeds(SetMaker.lazy(LockKind.MCS));
    }

    @Test
    void shouldCatchTheLazyListWhenItSkipsValidation() throws InterruptedException {
        assertCaught(SetMaker.unvalidatedLazy(LockKind.SPIN));
    }

    @Test
    void shouldCatchTheHarrisListWhenItUnlinksWithoutMarking() throws InterruptedException {
        assertCaught(SetMaker.unmarkedUnlink());
    }

    @Test
    void shouldCatchTheSkipListWhenItLinksLevelZeroWithAWrite() throws InterruptedException {
        assertCaught(SetMaker.brokenSkipList(BrokenSkipListSet.Flaw.WRITE_LINK));
    }

    @Test
    void shouldFindTheBrokenTwinsLinearizableWhenRunAlone() throws InterruptedException {
        try (TestCluster c = SetHistories.cluster(SimFabric::new)) {
            for (SetMaker broken : new SetMaker[]{SetMaker.unvalidatedLazy(LockKind.SPIN), SetMaker.unmarkedUnlink(),
                    SetMaker.brokenSkipList(BrokenSkipListSet.Flaw.WRITE_LINK)}) {
                CheckResult result = SetHistories.run(c, broken, 1, 1, OPS_PER_THREAD, KEYS, false);
                assertTrue(result.isLinearizable(), broken.name() + " alone is a correct sequential set: " + result);
            }
        }
    }
}
