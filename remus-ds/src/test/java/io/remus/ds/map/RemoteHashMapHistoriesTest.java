package io.remus.ds.map;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryFiles;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded histories of {@link RemoteHashMap} check as linearizable against remus-check's
 * {@link MapSpec}, key by key: 4 threads on the 3 nodes of a simulated cluster (torn 8-byte stores, yields
 * while tearing and inside NIC atomics, poison in freed blocks), each a seeded random mix of put, get and
 * remove with random yields, on 4 keys that share one table of 2 buckets (so concurrent first inserts of
 * one key race for different empty slots), two of them with the same fingerprint, over many seeds, with
 * the epoch reclaimer freeing replaced blocks meanwhile. Values are 8 to 40 bytes, every 8-byte word of
 * a value the same word, unique to its put: a get that returns words that differ is recorded as the value
 * -1, which no put wrote. The same races run on byte-string keys too, and in a table of 4 buckets, the
 * smallest whose keys have two combined buckets of two buckets each. {@link InPlaceHashMapTest} shows the
 * same check catching a broken twin. A history the checker rejects is written to
 * {@code target/histories/} ({@link #saved}), named by test, fabric and seed, for
 * {@link HistoryFiles#read}; each seed's map is destroyed before the next seed's is created.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteHashMapHistoriesTest {
    private static final int HOME = 1;
    private static final int THREADS = 4;
    private static final long[] SEEDS = {1, 2, 3, 4, 5, 6, 7, 8};
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    int operationsPerThread() {
        return 100;
    }

    long[] seeds() {
        return SEEDS;
    }

    static SimOptions hostile() {
        return SimOptions.defaults().withTearWords(true).withYieldWhileTearing(true).withYieldInsideNicAtomics(true)
                .withPoisonFreedBlocks(true).withTearReads(true);
    }

    /** Keys 1, 2, 3 and a fourth with the fingerprint of key 1. */
    static long[] keys() {
        long twin = 1000;
        while (Slot.fingerprintOf(twin) != Slot.fingerprintOf(1)) {
            twin++;
        }
        return new long[] {1, 2, 3, twin};
    }

    /**
     * Byte-string keys for the same workload, standing for the spec's keys 0..3: two of 20 bytes that
     * differ only in their last byte, one of 19 bytes that is a prefix of both and has the fingerprint of
     * the first, and a shorter one with that fingerprint too (all share their first 8 bytes, and in a table
     * of 2 buckets all share their buckets).
     */
    static byte[][] byteKeys() {
        byte[] first = null;
        byte[] prefix = null;
        for (char a = '0'; a <= 'z' && first == null; a++) {
            for (char b = '0'; b <= 'z' && first == null; b++) {
                byte[] p = ("shared-prefix-key-" + a).getBytes(StandardCharsets.US_ASCII);
                byte[] k = ("shared-prefix-key-" + a + b).getBytes(StandardCharsets.US_ASCII);
                if (fingerprintOf(p) == fingerprintOf(k)) {
                    first = k;
                    prefix = p;
                }
            }
        }
        byte[] second = first.clone();
        second[second.length - 1] ^= 1;
        int fp = fingerprintOf(first);
        byte[] twin = null;
        for (int i = 0; twin == null; i++) {
            byte[] candidate = ("shared-p" + i).getBytes(StandardCharsets.US_ASCII);
            if (fingerprintOf(candidate) == fp) {
                twin = candidate;
            }
        }
        return new byte[][] {first, second, prefix, twin};
    }

    /** @return the fingerprint the map gives a byte-string key */
    static int fingerprintOf(byte[] key) {
        MemorySegment padded = MemorySegment.ofArray(new byte[(key.length + 7) & ~7]);
        MemorySegment.copy(key, 0, padded, ValueLayout.JAVA_BYTE, 0, key.length);
        return Slot.fingerprintOf(Slot.digest(padded, key.length));
    }

    /** The byte map driven with {@link #byteKeys()}: the spec's key {@code i} is byte key {@code i}. */
    static MapUnderTest withByteKeys(RemoteHashMap map, byte[][] keys) {
        return new MapUnderTest() {
            @Override
            public boolean put(long key, byte[] value) {
                return map.put(keys[(int) key], value);
            }

            @Override
            public byte[] get(long key) {
                return map.get(keys[(int) key]);
            }

            @Override
            public boolean remove(long key) {
                return map.remove(keys[(int) key]);
            }
        };
    }

    static byte[] value(long word, int words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < words; i++) {
            b.putLong(word);
        }
        return b.array();
    }

    /** @return the word every 8 bytes of the value hold, or -1 when they differ or the length is no multiple of 8 */
    static long wordOf(byte[] value) {
        if (value.length == 0 || value.length % 8 != 0) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        long w = b.getLong(0);
        for (int i = 8; i < value.length; i += 8) {
            if (b.getLong(i) != w) {
                return -1;
            }
        }
        return w;
    }

    /** One thread's random operations on the map, recorded. */
    static void work(MapUnderTest map, History.Recorder r, SplittableRandom rnd, int index, int ops, long[] keys) {
        for (int i = 0; i < ops; i++) {
            if (ThreadLocalRandom.current().nextInt(3) == 0) {
                Thread.yield();
            }
            long key = keys[rnd.nextInt(keys.length)];
            int pick = rnd.nextInt(10);
            if (pick < 4) {
                long word = ((index + 1L) << 32) | (i + 1);
                int op = r.invoke(MapSpec.PUT, key, word);
                boolean inserted = map.put(key, value(word, 1 + rnd.nextInt(5)));
                r.respond(op, inserted ? 1 : 0);
            } else if (pick < 8) {
                int op = r.invoke(MapSpec.GET, key);
                byte[] v = map.get(key);
                if (v == null) {
                    r.respond(op, 0);
                } else {
                    r.respond(op, 1, wordOf(v));
                }
            } else {
                int op = r.invoke(MapSpec.REMOVE, key);
                r.respond(op, map.remove(key) ? 1 : 0);
            }
        }
    }

    static CheckResult check(History history, int expected, String what) {
        List<Operation> operations = history.operations();
        assertEquals(expected, operations.size(), what + ": every operation recorded");
        CheckResult result = CHECKER.checkByKey(operations, new MapSpec());
        assertTrue(result.verdict() != Verdict.UNKNOWN, what + ": the checker ran out of its budget of " + CHECKER.budget()
                + " before deciding, which proves nothing; make the history smaller: " + result);
        return result;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRecordLinearizableHistoriesWhenThreadsRaceOnFewKeys(Function<SimOptions, Fabric> make, TestInfo test)
            throws InterruptedException {
        long withdrawn = recordAndCheck(make, EpochOptions.defaults().withBytes(256, 4096), false, 2, test);
        if (racesForSure()) {
            assertTrue(withdrawn > 0, "concurrent first inserts of one key met, and some claims were withdrawn");
        }
    }

    /**
     * The same races in a table of 4 buckets, where every key's two combined buckets are the table's
     * buckets 0-1 and 2-3: a first insert claims a slot in the emptiest of the 4, so concurrent first inserts
     * of one key claim slots in different buckets and in different combined buckets, and still only one of
     * them commits.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRecordLinearizableHistoriesWhenThreadsRaceInTwoCombinedBuckets(Function<SimOptions, Fabric> make,
                                                                              TestInfo test) throws InterruptedException {
        long withdrawn = recordAndCheck(make, EpochOptions.defaults().withBytes(256, 4096), false, 4, test);
        if (racesForSure()) {
            assertTrue(withdrawn > 0, "concurrent first inserts of one key met, and some claims were withdrawn");
        }
    }

    /**
     * Leases of {@link #shortLease()} run out inside many operations (yields on a busy host take longer),
     * so operations withdraw their claims and start over in fresh guards; others still wait the 50 ms
     * clock skew before they free what such a guard may read.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRecordLinearizableHistoriesWhenLeasesRunOutInsideOperations(Function<SimOptions, Fabric> make, TestInfo test)
            throws InterruptedException {
        recordAndCheck(make, EpochOptions.defaults().withLease(shortLease()).withClockSkew(Duration.ofMillis(50))
                .withBytes(256, 4096), false, 2, test);
    }

    /**
     * The same races on byte-string keys ({@link #byteKeys()}) of different lengths that share their first
     * 8 bytes, one a prefix of two others and one a fingerprint twin: a lookup must compare whole keys.
     * {@link PrefixKeyHashMapTest} shows the check catching a map that compares only the first 8 bytes.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRecordLinearizableHistoriesWhenKeysAreByteStrings(Function<SimOptions, Fabric> make, TestInfo test)
            throws InterruptedException {
        recordAndCheck(make, EpochOptions.defaults().withBytes(256, 4096), true, 2, test);
    }

    /** @return the claims withdrawn over all seeds */
    private long recordAndCheck(Function<SimOptions, Fabric> make, EpochOptions epoch, boolean byteKeys, int buckets,
                                TestInfo test) throws InterruptedException {
        int ops = operationsPerThread();
        long[] keys = byteKeys ? new long[] {0, 1, 2, 3} : keys();
        byte[][] bytes = byteKeys();
        AtomicLong withdrawn = new AtomicLong();
        try (TestCluster c = new TestCluster(make, hostile(), 3, b -> b.segmentSize(1 << 20))) {
            for (long seed : seeds()) {
                long ptr;
                try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                    ptr = RemoteHashMap.create(t, r, HOME, buckets, byteKeys ? 24 : RemoteHashMap.LONG_KEY_BYTES, 64).ptr();
                }
                History history = new History(HistoryClock.NANO_TIME);
                History.Recorder[] recorders = new History.Recorder[THREADS];
                for (int i = 0; i < THREADS; i++) {
                    recorders[i] = history.recorder(i);
                }
                c.runOnThreads(spread(THREADS), (index, t) -> {
                    try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), epoch)) {
                        RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptr);
                        work(byteKeys ? withByteKeys(map, bytes) : MapUnderTest.of(map), recorders[index], new SplittableRandom(seed * 1_000_003L + index), index, ops,
                                keys);
                        withdrawn.addAndGet(map.withdrawnClaims());
                    }
                });
                try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                    RemoteHashMap.attach(t, r, ptr).destroy();
                }
                CheckResult result = check(history, THREADS * ops, "seed " + seed);
                if (result.verdict() != Verdict.LINEARIZABLE) {
                    Path file = saved(test, seed);
                    HistoryFiles.write(history, file);
                    assertEquals(Verdict.LINEARIZABLE, result.verdict(), "seed " + seed + " (history in " + file + "): " + result);
                }
            }
        }
        return withdrawn.get();
    }

    /**
     * @return where a rejected history of {@code test} at {@code seed} is written:
     *         {@code target/histories/<class>.<method>.<fabric>.seed<seed>.history}
     */
    static Path saved(TestInfo test, long seed) {
        String method = test.getTestMethod().map(Method::getName).orElse("test");
        String fabric = test.getDisplayName().replaceAll("[^A-Za-z0-9_-]+", "_").replaceAll("^_+|_+$", "");
        Path dir = Path.of("target", "histories");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir.toAbsolutePath(), e);
        }
        return dir.resolve(test.getTestClass().map(Class::getSimpleName).orElse("histories") + "." + method + "." + fabric
                + ".seed" + seed + ".history");
    }

    /** @return a lease shorter than some operations (1 ms on the simulator) */
    Duration shortLease() {
        return Duration.ofMillis(1);
    }

    /** Whether concurrent first inserts of one key meet for sure over the seeds (the simulator's yields make them). */
    boolean racesForSure() {
        return true;
    }

    static int[] spread(int threads) {
        int[] of = new int[threads];
        for (int i = 0; i < threads; i++) {
            of[i] = i % 3;
        }
        return of;
    }
}
