package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How full a {@link RemoteHashMap} gets before its first {@link MapFullException}: random keys go into an
 * empty table until one does not fit, for many seeds and two table sizes. RACE hashing reaches about 90 %
 * before it resizes; this map, which never resizes, must hold at least {@value #MIN_LOAD} of its slots
 * every time. In the full table a lookup still takes its 2 round trips, counted by the compute thread's
 * operation counters: one batch READs the key's two combined buckets, one the blocks of every slot there
 * with its fingerprint (its own and its fingerprint twins'); a miss with no such slot takes 1.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RemoteHashMapLoadFactorTest {
    static final int HOME = 1;
    static final double MIN_LOAD = 0.85;
    private static final byte[] VALUE = {7};
    private static final long ROOT_TABLE = 16;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** @return table sizes and, for each, how many seeds fill one */
    int[][] runs() {
        return new int[][] {{256, 24}, {1024, 6}};
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHoldAtLeast85PercentOfItsSlotsBeforeTheFirstMapFullExceptionWhenKeysAreRandom(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> b.segmentSize(4 << 20));
             ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
            StringBuilder loads = new StringBuilder();
            double least = 1;
            for (int[] run : runs()) {
                for (int seed = 0; seed < run[1]; seed++) {
                    double load = fill(c, t, r, run[0], seed);
                    least = Math.min(least, load);
                    loads.append(String.format(" %d/%d:%.3f", run[0], seed, load));
                }
            }
            System.out.println("RemoteHashMap load at the first MapFullException (buckets/seed:load):" + loads);
            assertTrue(least >= MIN_LOAD, "least load " + least + " over" + loads);
        }
    }

    /**
     * Fills an empty map of {@code buckets} buckets with random keys of {@code seed} until a put throws
     * {@link MapFullException}; then checks every key put and the round trips of lookups, and frees the map.
     *
     * @return the keys it held when the put failed, over its capacity
     */
    private static double fill(TestCluster c, ComputeThread t, NeverReclaimer r, int buckets, long seed) {
        RemoteHashMap map = RemoteHashMap.create(t, r, HOME, buckets, VALUE.length);
        SplittableRandom random = new SplittableRandom(seed);
        Set<Long> keys = new HashSet<>();
        while (true) {
            long k = random.nextLong();
            if (!keys.add(k)) {
                continue;
            }
            try {
                assertTrue(map.put(k, VALUE), "a new key is inserted");
            } catch (MapFullException full) {
                assertEquals(k, full.key(), "the exception names the key that did not fit");
                assertTrue(full.getMessage().contains("of " + buckets + ")"), full.getMessage());
                keys.remove(k);
                break;
            }
            assertTrue(keys.size() <= map.capacity(), "never more keys than slots");
        }
        MemorySegment table = c.raw(c.raw(map.ptr(), RemoteHashMap.ROOT_BYTES).get(ValueLayout.JAVA_LONG, ROOT_TABLE),
                (long) buckets * RemoteHashMap.BUCKET_BYTES);
        int alone = 0;
        for (long k : keys) {
            int twins = committedWithFingerprint(table, buckets, k);
            MapCounts before = MapCounts.of(t);
            assertArrayEquals(VALUE, map.get(k), "key " + k + " of seed " + seed);
            assertTrue(twins >= 1, "the key's own slot has its fingerprint");
            assertEquals(new MapCounts(2, 3 + twins, 0, 0), before.since(t),
                    "a lookup: 1 batch of 2 combined-bucket READs and the root header's READ, 1 of the blocks of the " + twins + " slots with its fingerprint");
            alone += twins == 1 ? 1 : 0;
        }
        assertTrue(alone >= keys.size() * 3 / 4, alone + " of " + keys.size() + " keys have no fingerprint twin in their buckets");
        for (int i = 0; i < 64; i++) {
            long k = random.nextLong();
            if (keys.contains(k) || committedWithFingerprint(table, buckets, k) > 0) {
                continue;
            }
            MapCounts before = MapCounts.of(t);
            assertNull(map.get(k));
            assertEquals(new MapCounts(1, 3, 0, 0), before.since(t), "a miss: the batch of 2 combined-bucket READs and the root header's READ only");
        }
        double load = (double) keys.size() / map.capacity();
        map.destroy();
        return load;
    }

    /** @return how many committed slot words of {@code key}'s 4 buckets carry its fingerprint, as the home node's CPU sees them */
    private static int committedWithFingerprint(MemorySegment table, int buckets, long key) {
        int fp = Slot.fingerprintOf(key);
        int width = Slot.width(buckets);
        int n = 0;
        for (int first : new int[] {Slot.firstBucket(key, buckets), Slot.secondBucket(key, buckets)}) {
            for (int i = 0; i < width * RemoteHashMap.SLOTS_PER_BUCKET; i++) {
                long w = table.get(ValueLayout.JAVA_LONG, (long) first * RemoteHashMap.BUCKET_BYTES + 8L * i);
                if (w != 0 && !Slot.isPending(w) && Slot.fingerprint(w) == fp) {
                    n++;
                }
            }
        }
        return n;
    }
}
