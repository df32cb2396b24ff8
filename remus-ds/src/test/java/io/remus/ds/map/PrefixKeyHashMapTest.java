package io.remus.ds.map;

import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The byte-key check of {@link RemoteHashMapHistoriesTest} can fail: the same workload on
 * {@link RemoteHashMapHistoriesTest#byteKeys()} through the broken twin {@link PrefixKeyHashMap} (keys
 * compared by their first 8 bytes only) is found not linearizable in some of the seeds, while the real
 * map keeps the keys apart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrefixKeyHashMapTest {
    private static final int HOME = 1;
    private static final int THREADS = 4;
    private static final int OPS = 60;
    private static final long[] SEEDS = {1, 2, 3, 4};

    @Test
    void shouldBeCaughtByTheCheckerWhenTheTwinComparesOnlyTheFirstEightBytes() throws InterruptedException {
        byte[][] keys = RemoteHashMapHistoriesTest.byteKeys();
        int caught = 0;
        StringBuilder verdicts = new StringBuilder();
        try (TestCluster c = new TestCluster(SimFabric::new, RemoteHashMapHistoriesTest.hostile(), 3, b -> b.segmentSize(1 << 20))) {
            for (long seed : SEEDS) {
                long ptr;
                try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                    ptr = RemoteHashMap.create(t, r, HOME, 2, 24, 64).ptr();
                }
                History history = new History(HistoryClock.NANO_TIME);
                History.Recorder[] recorders = new History.Recorder[THREADS];
                for (int i = 0; i < THREADS; i++) {
                    recorders[i] = history.recorder(i);
                }
                c.runOnThreads(RemoteHashMapHistoriesTest.spread(THREADS), (index, t) -> {
                    try (NeverReclaimer r = new NeverReclaimer(t)) {
                        RemoteHashMapHistoriesTest.work(new PrefixKeyHashMap(RemoteHashMap.attach(t, r, ptr), keys), recorders[index],
                                new SplittableRandom(seed * 1_000_003L + index), index, OPS, new long[] {0, 1, 2, 3});
                    }
                });
                CheckResult result = RemoteHashMapHistoriesTest.check(history, THREADS * OPS, "twin, seed " + seed);
                verdicts.append(' ').append(result.verdict());
                if (result.verdict() == Verdict.NOT_LINEARIZABLE) {
                    caught++;
                }
            }
        }
        assertTrue(caught > 0, "the broken twin was caught by the checker in some seed:" + verdicts);
    }

    @Test
    void shouldKeepKeysApartWhenTheRealMapSharesTheirFirstEightBytes() {
        byte[][] keys = RemoteHashMapHistoriesTest.byteKeys();
        try (TestCluster c = new TestCluster(SimFabric::new, RemoteHashMapHistoriesTest.hostile(), 3, b -> { });
             ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 24, 64);
            for (int i = 0; i < keys.length; i++) {
                assertTrue(map.put(keys[i], RemoteHashMapHistoriesTest.value(i + 1, 1)), "key " + i + " is new");
            }
            for (int i = 0; i < keys.length; i++) {
                assertArrayEquals(RemoteHashMapHistoriesTest.value(i + 1, 1), map.get(keys[i]), "key " + i);
            }
        }
    }
}
