package io.remus.bench.structure;

import io.remus.alock.kind.LockKind;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DsBenchmark} on the simulator, by behaviour rather than speed: the operation mix, the prefill,
 * the RDMA counts per operation against the structures' documented costs, the YCSB workloads, Remus'
 * metrics file, and the cluster engine with one node per thread.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DsBenchmarkTest {
    private static DsBenchmarkConfig config(StructureKind s, int nodes, int threads, boolean home, long ops,
                                            int prefill, int insert, int remove, long keyUb, Ycsb ycsb) {
        return new DsBenchmarkConfig(s, LockKind.ALOCK, nodes, threads, home, null, ops, prefill, insert, remove, 0,
                keyUb, 0, ycsb, 32, 16L << 20, 7);
    }

    private static DsBenchmarkResult run(DsBenchmarkConfig c, AtomicLong recorded) throws InterruptedException {
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            return DsBenchmark.run(fabric, c, (w, op) -> nanos -> recorded.incrementAndGet());
        }
    }

    private static DsBenchmarkResult run(DsBenchmarkConfig c) throws InterruptedException {
        return run(c, new AtomicLong());
    }

    private static void assertShare(double expected, long part, long whole, String what) {
        double share = (double) part / whole;
        assertTrue(Math.abs(share - expected) < 0.04, what + ": share " + share + ", expected about " + expected);
    }

    @ParameterizedTest
    @EnumSource(StructureKind.class)
    void shouldMixInsertsRemovesAndLookupsInTheConfiguredProportionsWhenRunningAnOperationCount(StructureKind s)
            throws InterruptedException {
        AtomicLong recorded = new AtomicLong();
        DsBenchmarkResult r = run(config(s, 2, 2, true, 1500, 50, 20, 30, 255, null), recorded);
        assertEquals(4 * 1500, r.ops(), "every worker ran its count");
        assertEquals(r.ops(), recorded.get(), "every operation's latency reached its sink");
        assertShare(0.2, r.ops(OpType.INSERT), r.ops(), "inserts");
        assertShare(0.3, r.ops(OpType.REMOVE), r.ops(), "removes");
        assertShare(0.5, r.ops(OpType.LOOKUP), r.ops(), "lookups");
        assertEquals(0, r.ops(OpType.UPDATE) + r.ops(OpType.RMW), "no YCSB operations in the intset mix");
        assertTrue(r.succeeded(OpType.INSERT) > 0 && r.failed(OpType.INSERT) > 0, "inserts both add and find keys");
        assertTrue(r.opsPerSecond() > 0);
    }

    @ParameterizedTest
    @EnumSource(StructureKind.class)
    void shouldPrefillThePercentOfTheKeyRangeWhenTheRunOnlyLooksUp(StructureKind s) throws InterruptedException {
        DsBenchmarkResult r = run(config(s, 2, 2, true, 500, 40, 0, 0, 199, null));
        assertEquals(80, r.prefilled(), "40 % of the 200 keys 0..199, each inserted once");
        assertEquals(r.ops(), r.ops(OpType.LOOKUP));
        assertShare(0.4, r.succeeded(OpType.LOOKUP), r.ops(), "lookups that find a prefilled key");
        assertEquals(0, r.total(Cost.WRITES) + r.total(Cost.COMPARE_AND_SWAPS), "lookups write nothing");
    }

    @ParameterizedTest
    @EnumSource(StructureKind.class)
    void shouldFreeTheStructureWhenTheRunEnds(StructureKind kind) throws InterruptedException {
        int[] state = new int[1];
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            DsBenchmark.run(fabric, config(kind, 2, 2, true, 200, 64, 25, 25, 255, null), DsLatencySinks.NONE,
                    (t, ptr, latest) -> { }, (t, ptr, latest) -> state[0] = BlockHeader.state(
                            t.read(BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES)))));
        }
        assertEquals(BlockHeader.FREE, state[0], kind + ": the destroy after the workers closed freed the structure");
    }

    @Test
    void shouldCostTheHashMapsDocumentedRoundTripsPerOperationWhenEveryWorkerIsRemote() throws InterruptedException {
        DsBenchmarkResult lookups = run(config(StructureKind.HASH_MAP, 2, 2, false, 400, 100, 0, 0, 511, null));
        assertEquals(lookups.ops(), lookups.succeeded(OpType.LOOKUP), "every key of the range was prefilled");
        assertEquals(2.0, lookups.perOp(OpType.LOOKUP, Cost.ROUND_TRIPS), 0.05,
                "a present key's get: one batch of two bucket READs, then the block's READ");
        assertEquals(4.0, lookups.perOp(OpType.LOOKUP, Cost.READS), 0.1,
                "two bucket READs and the root header's READ in the batch, and one block READ");
        assertEquals(0, lookups.perOp(OpType.LOOKUP, Cost.COMPARE_AND_SWAPS));

        DsBenchmarkResult misses = run(config(StructureKind.HASH_MAP, 2, 1, false, 300, 0, 0, 0, 511, null));
        assertEquals(1.0, misses.perOp(OpType.LOOKUP, Cost.ROUND_TRIPS), 0.05, "an absent key's get: one batch");

        DsBenchmarkResult puts = run(config(StructureKind.HASH_MAP, 2, 1, false, 300, 100, 100, 0, 511, null));
        assertEquals(puts.ops(), puts.failed(OpType.INSERT), "every put replaces a present key's value");
        double reclaimer = puts.perOp(OpType.INSERT, Cost.RECLAIMER_ROUND_TRIPS);
        assertTrue(reclaimer > 0, "300 retired blocks of 64 bytes reach the reclaimer's 16 KiB pass threshold: a pass READs node 0's table");
        double rt = puts.perOp(OpType.INSERT, Cost.ROUND_TRIPS) - puts.perOp(OpType.INSERT, Cost.ALLOCATOR_ROUND_TRIPS) - reclaimer;
        assertEquals(3.0, rt, 0.02, "a put of a present key besides its allocation and reclamation: batch, key READ, compare-and-swap");
        assertTrue(puts.perOp(OpType.INSERT, Cost.COMPARE_AND_SWAPS) >= 1, "a compare-and-swap publishes it (the "
                + "allocator's own are counted too)");
    }

    @ParameterizedTest
    @EnumSource(value = StructureKind.class, names = {"LAZY_LIST", "LOCK_FREE_LIST"})
    void shouldCostAListLookupAboutOneReadPerNodePassedWhenEveryWorkerIsRemote(StructureKind s)
            throws InterruptedException {
        DsBenchmarkResult r = run(config(s, 2, 1, false, 300, 100, 0, 0, 63, null));
        double rt = r.perOp(OpType.LOOKUP, Cost.ROUND_TRIPS);
        assertTrue(rt >= 16 && rt <= 66, "a uniform key of 64 is about half-way down the list (<= 64 nodes + head): " + rt);
        assertEquals(rt + 1, r.perOp(OpType.LOOKUP, Cost.READS), 0.01,
                "a traversal is one READ per round trip, and the root header's READ in the head's batch");
    }

    @Test
    void shouldRunYcsbMixesOnTheHashMapWithEveryKeyLoaded() throws InterruptedException {
        DsBenchmarkResult c = run(config(StructureKind.HASH_MAP, 2, 2, true, 500, 0, 0, 0, 255, Ycsb.C));
        assertEquals(256, c.prefilled(), "YCSB loads every key");
        assertEquals(c.ops(), c.succeeded(OpType.LOOKUP), "C reads only loaded keys");
        DsBenchmarkResult b = run(config(StructureKind.HASH_MAP, 2, 2, true, 1000, 0, 0, 0, 255, Ycsb.B));
        assertShare(0.95, b.ops(OpType.LOOKUP), b.ops(), "B reads");
        assertShare(0.05, b.ops(OpType.UPDATE), b.ops(), "B updates");
        assertEquals(b.ops(OpType.UPDATE), b.failed(OpType.UPDATE), "an update replaces a present key's value");
        DsBenchmarkResult d = run(config(StructureKind.HASH_MAP, 2, 2, true, 1000, 0, 0, 0, 255, Ycsb.D));
        assertShare(0.05, d.ops(OpType.INSERT), d.ops(), "D inserts");
        assertEquals(d.ops(OpType.INSERT), d.succeeded(OpType.INSERT), "D inserts fresh keys");
        assertEquals(d.ops(OpType.LOOKUP), d.succeeded(OpType.LOOKUP), "D reads only keys inserted or loaded before");
        DsBenchmarkResult f = run(config(StructureKind.HASH_MAP, 2, 2, true, 1000, 0, 0, 0, 255, Ycsb.F));
        assertShare(0.5, f.ops(OpType.RMW), f.ops(), "F read-modify-writes");
        assertEquals(f.ops(OpType.RMW), f.succeeded(OpType.RMW), "every read-modify-write finds its key");
        assertTrue(f.perOp(OpType.RMW, Cost.COMPARE_AND_SWAPS) >= 1, "a read-modify-write publishes its put");
    }

    @Test
    void shouldInsertUniqueDenseKeysAcrossWorkersWhenYcsbDRunsOnTwoNodes() throws InterruptedException {
        DsBenchmarkConfig c = config(StructureKind.HASH_MAP, 2, 1, true, 1500, 0, 0, 0, 255, Ycsb.D);
        long[] seen = new long[4];
        DsBenchmarkResult d;
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            d = DsBenchmark.run(fabric, c, DsLatencySinks.NONE, (t, ptr, latest) -> {
                seen[0] = t.read(latest + LatestKeys.COUNTER);
                seen[1] = t.read(latest + LatestKeys.LIMIT);
                try (NeverReclaimer r = new NeverReclaimer(t); RemoteHashMap m = RemoteHashMap.attach(t, r, ptr)) {
                    MemorySegment into = MemorySegment.ofArray(new byte[32]);
                    for (long k = 256; k < 256 + seen[0]; k++) {
                        seen[2] += m.get(k, into) >= 0 ? 1 : 0;
                    }
                    seen[3] = m.get(256 + seen[0], into) >= 0 ? 1 : 0;
                }
            });
        }
        long inserts = d.ops(OpType.INSERT);
        assertTrue(inserts > 100, "about 5 % of 3000 operations insert: " + inserts);
        assertEquals(inserts, d.succeeded(OpType.INSERT), "no key was inserted twice: every put found its key new");
        assertEquals(inserts, seen[0], "one sequence number per insert, from one counter for both workers");
        assertEquals(inserts, seen[1], "every insert acknowledged");
        assertEquals(inserts, seen[2], "keys 256..255 + inserts are all in the map: dense across the workers");
        assertEquals(0, seen[3], "and none above");
        assertEquals(d.ops(OpType.LOOKUP), d.succeeded(OpType.LOOKUP), "no read names an insert still in flight");
    }

    @Test
    void shouldReportTheKeyGeneratorsRoundTripsApartWhenYcsbDRunsRemotely() throws InterruptedException {
        DsBenchmarkResult d = run(config(StructureKind.HASH_MAP, 2, 2, false, 1500, 0, 0, 0, 511, Ycsb.D));
        double lookup = d.perOp(OpType.LOOKUP, Cost.KEY_GENERATOR_ROUND_TRIPS);
        long refreshes = d.total(OpType.LOOKUP, Cost.KEY_GENERATOR_ROUND_TRIPS);
        assertTrue(refreshes > 0 && refreshes <= d.ops(OpType.LOOKUP) / LatestKeys.REFRESH_READS + 4,
                "a READ of the limit on each of the 4 workers' first read and every " + LatestKeys.REFRESH_READS
                        + " reads: " + refreshes + " in " + d.ops(OpType.LOOKUP));
        assertEquals(2.0, d.perOp(OpType.LOOKUP, Cost.ROUND_TRIPS) - lookup, 0.05,
                "besides it a lookup is the map's present-key get");
        double insert = d.perOp(OpType.INSERT, Cost.KEY_GENERATOR_ROUND_TRIPS);
        assertTrue(insert >= 3 && insert <= 6, "a claim's fetch-and-add, then the acknowledgment's 2 or 3: " + insert);
        assertTrue(d.perOp(OpType.INSERT, Cost.FETCH_AND_ADDS) >= 1, "the claim's fetch-and-add is in the counts");
        assertEquals(0, run(config(StructureKind.HASH_MAP, 2, 1, false, 300, 0, 0, 0, 255, Ycsb.B))
                .total(Cost.KEY_GENERATOR_ROUND_TRIPS), "no generator outside D");
    }

    @Test
    void shouldRecordEveryOperationsLatencyWhenRunningForADuration() throws InterruptedException {
        AtomicLong recorded = new AtomicLong();
        DsBenchmarkConfig c = new DsBenchmarkConfig(StructureKind.LAZY_LIST, LockKind.SPIN, 1, 2, true,
                Duration.ofMillis(100), 0, 50, 10, 10, 0, 127, 0.9, null, 0, 16L << 20, 3);
        DsBenchmarkResult r = run(c, recorded);
        assertTrue(r.ops() > 0);
        assertEquals(r.ops(), recorded.get());
    }

    @Test
    void shouldCostASkipListLookupAboutTwoReadsPerLevelWhenEveryWorkerIsRemote() throws InterruptedException {
        assertEquals(StructureKind.SKIP_LIST, StructureKind.parse("Skip-List"));
        DsBenchmarkResult r = run(config(StructureKind.SKIP_LIST, 2, 1, false, 300, 100, 0, 0, 255, null));
        assertEquals(r.ops(), r.succeeded(OpType.LOOKUP), "every key of the range was prefilled");
        double rt = r.perOp(OpType.LOOKUP, Cost.ROUND_TRIPS);
        assertTrue(rt >= 2 && rt <= 4 * 8 + 16, "a search of 256 keys: about 2 log2 256 READs, not the list's ~128: " + rt);
        assertEquals(rt + 1, r.perOp(OpType.LOOKUP, Cost.READS), 0.01,
                "a search is READs only, one per round trip, and the root header's READ in the head's batch");
    }

    @Test
    void shouldWriteRemusMetricsKeysThatParseBackWhenARunEnds() throws Exception {
        DsBenchmarkResult r = run(config(StructureKind.LOCK_FREE_LIST, 2, 1, false, 400, 50, 25, 25, 127, null));
        StringWriter text = new StringWriter();
        RemusMetrics.write(r, new PrintWriter(text));
        Map<String, Long> back = RemusMetrics.parse(new StringReader(text.toString()));
        assertEquals(RemusMetrics.KEYS, List.copyOf(back.keySet()), text.toString());
        assertEquals(400, back.get("op_count"));
        assertEquals(400, back.get("get_t") + back.get("get_f") + back.get("ins_t") + back.get("ins_f")
                + back.get("rmv_t") + back.get("rmv_f"));
        assertEquals(r.total(Cost.READS), back.get("read"));
        assertEquals(r.total(Cost.BYTES_READ), back.get("bytes_read"));
        assertEquals(r.total(Cost.COMPARE_AND_SWAPS), back.get("cas"));
        assertEquals(r.elapsedNanos() / 1000, back.get("duration"));
        assertThrows(BadArgumentException.class, () -> RemusMetrics.parse(new StringReader("read: many\n")));
    }

    @Test
    void shouldPickTheMostPopularKeyFarMoreOftenWhenZipfian() {
        int n = 1000;
        int draws = 20_000;
        long[] zipf = new long[n];
        long[] uniform = new long[n];
        KeyChooser z = new KeyChooser(new SplittableRandom(1), 0, n, 0.99, KeyChooser.zeta(n, 0.99));
        KeyChooser u = new KeyChooser(new SplittableRandom(1), 0, n, 0, 0);
        for (int i = 0; i < draws; i++) {
            zipf[(int) z.rank()]++;
            long k = u.next();
            assertTrue(k >= 0 && k < n);
            uniform[(int) k]++;
            long zk = z.next();
            assertTrue(zk >= 0 && zk < n, "a zipfian key stays in the range: " + zk);
        }
        assertTrue(zipf[0] > draws / 10, "rank 0 takes about 1/zeta(n) = 13 % of the draws: " + zipf[0]);
        assertTrue(zipf[0] > 1.8 * zipf[1], "rank 0 about twice as likely as rank 1: " + zipf[0] + " vs " + zipf[1]);
        long most = 0;
        for (long c : uniform) {
            most = Math.max(most, c);
        }
        assertTrue(most < draws / 100, "no uniform key takes 1 % of the draws: " + most);
    }

    @Test
    void shouldRefuseBadValuesNamingThemWhenConfigured() {
        var e = assertThrows(BadArgumentException.class,
                () -> config(StructureKind.HASH_MAP, 2, 1, true, 10, 50, 60, 50, 255, null));
        assertTrue(e.getMessage().contains("removePercent") && e.getMessage().contains("50"), e.getMessage());
        e = assertThrows(BadArgumentException.class,
                () -> config(StructureKind.LAZY_LIST, 2, 1, true, 10, 50, 0, 0, 255, Ycsb.A));
        assertTrue(e.getMessage().contains("lazy-list"), e.getMessage());
        e = assertThrows(BadArgumentException.class, () -> new DsBenchmarkConfig(StructureKind.HASH_MAP,
                LockKind.ALOCK, 1, 1, true, null, 10, 50, 0, 0, 0, 10, 1.0, null, 8, 16L << 20, 1));
        assertTrue(e.getMessage().contains("zipfTheta") && e.getMessage().contains("1.0"), e.getMessage());
        e = assertThrows(BadArgumentException.class, () -> config(StructureKind.HASH_MAP, 1, 1, false, 10, 0, 0, 0, 9, null));
        assertTrue(e.getMessage().contains("2 nodes"), e.getMessage());
        e = assertThrows(BadArgumentException.class, () -> StructureKind.parse("b-link-tree"));
        assertTrue(e.getMessage().contains("b-link-tree") && e.getMessage().contains("skip-list"), e.getMessage());
        e = assertThrows(BadArgumentException.class, () -> Ycsb.parse("E"));
        assertTrue(e.getMessage().contains("'E'"), e.getMessage());
    }

    /** Runs {@code c} as one process per node, each in a thread of its own: every node's returned shares. */
    private static List<List<ClusterDsBenchmark.NodeRun>> cluster(DsBenchmarkConfig c) throws Exception {
        int n = c.nodes();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<List<ClusterDsBenchmark.NodeRun>> all = new ArrayList<>();
        try (SimFabric fabric = new SimFabric()) {
            List<Future<List<ClusterDsBenchmark.NodeRun>>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int node = i;
                futures.add(pool.submit(() -> {
                    try (RemusCluster cluster = RemusCluster.builder().fabric(fabric)
                            .args("--nodes=" + String.join(",", List.of("a", "b", "c").subList(0, n)),
                                    "--node-id=" + node, "--seg-size=16M")
                            .joinTimeout(Duration.ofSeconds(30)).join()) {
                        ClusterDsBenchmark bench = new ClusterDsBenchmark(cluster, Duration.ofSeconds(30));
                        return bench.run(c, DsLatencySinks.NONE, () -> new byte[]{(byte) node, 42});
                    }
                }));
            }
            for (Future<List<ClusterDsBenchmark.NodeRun>> f : futures) {
                all.add(f.get(100, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        return all;
    }

    @Test
    void shouldAddUpEveryNodesCountsOnNodeZeroWhenThreeProcessesShareOneMap() throws Exception {
        int n = 3;
        List<List<ClusterDsBenchmark.NodeRun>> all = cluster(config(StructureKind.HASH_MAP, n, 2, true, 300, 50, 25,
                25, 255, null));
        List<ClusterDsBenchmark.NodeRun> atZero = all.getFirst();
        assertEquals(3, atZero.size(), "node 0 holds every node's share");
        List<DsBenchmarkResult> results = new ArrayList<>();
        for (int node = 0; node < n; node++) {
            assertArrayEquals(new byte[]{(byte) node, 42}, atZero.get(node).extra(), "node " + node + "'s bytes");
            assertEquals(2 * 300, atZero.get(node).result().ops(), "node " + node + "'s workers ran their counts");
            results.add(atZero.get(node).result());
        }
        for (int node = 1; node < n; node++) {
            assertEquals(1, all.get(node).size(), "a node other than 0 gets only its own share");
        }
        DsBenchmarkResult sum = ClusterDsBenchmark.aggregate(results);
        assertEquals(6 * 300, sum.ops());
        assertEquals(128, sum.prefilled(), "the nodes' prefills together insert half of the 256 keys");
        assertTrue(sum.total(Cost.READS) > 0, "the nodes read the map on node 0");
    }

    @Test
    void shouldShareOneInsertCounterAcrossProcessesWhenYcsbDRunsOnTwoNodes() throws Exception {
        List<List<ClusterDsBenchmark.NodeRun>> all = cluster(config(StructureKind.HASH_MAP, 2, 2, true, 800, 0, 0, 0,
                255, Ycsb.D));
        List<DsBenchmarkResult> results = new ArrayList<>();
        for (ClusterDsBenchmark.NodeRun r : all.getFirst()) {
            results.add(r.result());
        }
        DsBenchmarkResult sum = ClusterDsBenchmark.aggregate(results);
        assertEquals(4 * 800, sum.ops());
        assertTrue(results.get(0).ops(OpType.INSERT) > 0 && results.get(1).ops(OpType.INSERT) > 0, "both nodes insert");
        assertEquals(sum.ops(OpType.INSERT), sum.succeeded(OpType.INSERT),
                "no two inserts of the two processes share a key: every put found its key new");
        assertEquals(sum.ops(OpType.LOOKUP), sum.succeeded(OpType.LOOKUP), "every read names a key already inserted");
        assertTrue(results.get(1).total(OpType.INSERT, Cost.KEY_GENERATOR_ROUND_TRIPS)
                >= 3L * results.get(1).ops(OpType.INSERT),
                "node 1's inserts claim and acknowledge on node 0: at least 3 round trips each");
    }
}
