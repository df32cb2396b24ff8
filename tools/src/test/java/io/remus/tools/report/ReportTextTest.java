package io.remus.tools.report;

import io.remus.bench.object.ObjectReport;
import io.remus.bench.reclaim.ReclaimReport;
import io.remus.bench.lock.LockReport;
import io.remus.alock.kind.LockKind;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.bench.lock.LockRun;
import io.remus.bench.object.ImplKind;
import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvResult;
import io.remus.bench.object.KvRun;
import io.remus.bench.object.KvWay;
import io.remus.bench.object.ObjectBenchmarkConfig;
import io.remus.bench.object.ObjectBenchmarkResult;
import io.remus.bench.object.ObjectKind;
import io.remus.bench.object.ObjectRun;
import io.remus.bench.object.SharingConfig;
import io.remus.bench.object.SharingResult;
import io.remus.bench.object.SharingRun;
import io.remus.bench.object.SharingWay;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.reclaim.ReclaimBenchmarkResult;
import io.remus.bench.reclaim.ReclaimerKind;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.OpType;
import io.remus.bench.structure.StructureKind;
import io.remus.bench.structure.Ycsb;
import io.remus.core.fabric.Opcode;
import io.remus.tools.ds.DsFormat;
import io.remus.tools.ds.DsReport;
import io.remus.tools.experiment.KvFormat;
import io.remus.tools.experiment.SharingFormat;
import io.remus.tools.lock.LockCsv;
import io.remus.tools.lock.LockFormat;
import io.remus.tools.object.ObjectFormat;
import io.remus.tools.reclaim.ReclaimFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The human, JSON and CSV text of the ds, lock, object and reclaim reports and the kv and sharing experiments, character for character, for
 * fixed runs: the expected text lies in {@code golden/NAME.txt} beside this class's resources (a mismatch
 * leaves the actual text in {@code target/golden-actual/NAME.txt}).
 */
class ReportTextTest {
    private Locale saved;

    @BeforeEach
    void rootLocale() {
        saved = Locale.getDefault();
        Locale.setDefault(Locale.ROOT);
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(saved);
    }

    private static LatencySummary latency(long base) {
        return new LatencySummary(1000 + base, 100 + base, 90_000 + base, 1500 + base, 1700.25 + base, 300.5,
                4000 + base, 9000 + base, 20_000 + base, 50_000 + base);
    }

    private static DsReport dsReport() {
        DsBenchmarkConfig ycsb = new DsBenchmarkConfig(StructureKind.HASH_MAP, LockKind.ALOCK, 2, 2, false, null, 300,
                50, 0, 0, 0, 255, 0, Ycsb.F, 64, 64L << 20, 1);
        DsBenchmarkConfig mixed = DsBenchmarkConfig.remusDefaults(StructureKind.LAZY_LIST);
        return new DsReport("sim", List.of("a \"quoted\" note", "second note"),
                List.of(dsRun(ycsb, 3), dsRun(mixed, 7)));
    }

    private static DsRun dsRun(DsBenchmarkConfig c, int seed) {
        int types = OpType.values().length;
        long[] outcomes = new long[2 * types];
        long[] costs = new long[types * Cost.values().length];
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] = i % 3 == 0 ? 0 : seed * 10L + i;
        }
        for (int i = 0; i < costs.length; i++) {
            costs[i] = seed * 7L + i * 3L;
        }
        DsBenchmarkResult r = new DsBenchmarkResult(c, 1_234_567_891L, 128, outcomes, costs);
        Map<OpType, LatencySummary> byOp = new EnumMap<>(OpType.class);
        for (OpType op : OpType.values()) {
            if (op.ordinal() % 2 == 0) {
                byOp.put(op, latency(op.ordinal() * 11L + seed));
            }
        }
        return new DsRun(r, byOp, latency(seed));
    }

    private static LockReport lockReport() {
        return new LockReport("sim", List.of("lock note"), List.of(lockRun(LockKind.ALOCK, 0.9, 1000),
                lockRun(LockKind.SPIN, 0.9, 100), lockRun(LockKind.MCS, 0.9, 250), lockRun(LockKind.ALOCK, 1.0, 10),
                lockRun(LockKind.MCS, 0.5, 77)));
    }

    private static LockRun lockRun(LockKind kind, double pLocal, long operations) {
        LockBenchmarkConfig c = new LockBenchmarkConfig(kind, 2, 2, pLocal, 16, 8, 8, Duration.ofSeconds(1), 1);
        return new LockRun("sim", c, operations, operations / 3, 2.5, latency(operations));
    }

    private static ObjectReport objectReport() {
        ObjectBenchmarkConfig plain = ObjectBenchmarkConfig.of(ObjectKind.COUNTER, ImplKind.WAITFREE, 2, 2,
                Duration.ofSeconds(1), false);
        ObjectBenchmarkConfig stalled = ObjectBenchmarkConfig.of(ObjectKind.QUEUE, ImplKind.ALOCK, 3, 1,
                Duration.ofSeconds(1), true);
        long[] posted = new long[Opcode.values().length];
        for (int i = 0; i < posted.length; i++) {
            posted[i] = 100L * (i + 1);
        }
        return new ObjectReport("verbs", List.of("object note"), List.of(
                new ObjectRun(new ObjectBenchmarkResult(plain, 777, 987_654_321L, posted, 0, 0, 0), latency(5)),
                new ObjectRun(new ObjectBenchmarkResult(stalled, 555, 1_987_654_321L, posted, 123_456_789L, 4321, 12),
                        latency(9))));
    }

    private static ReclaimReport reclaimReport() {
        long[] posted = new long[Opcode.values().length];
        for (int i = 0; i < posted.length; i++) {
            posted[i] = 50L * (i + 2);
        }
        ReclaimBenchmarkConfig epoch = ReclaimBenchmarkConfig.of(ReclaimerKind.EPOCH, 2, 2, Duration.ofSeconds(1), true);
        ReclaimBenchmarkConfig never = ReclaimBenchmarkConfig.of(ReclaimerKind.NEVER, 2, 2, Duration.ofSeconds(1), false);
        return new ReclaimReport("sim", List.of("reclaim note"), List.of(
                new ReclaimBenchmarkResult(epoch, 4000, 1_100_000_000L, 3000, 1000, 12, 0, null, 5_000_000L,
                        3_000_000L, 1500, posted, 2,
                        List.of(new ReclaimBenchmarkResult.Sample(20, 1024, 100),
                                new ReclaimBenchmarkResult.Sample(40, 4096, 250))),
                new ReclaimBenchmarkResult(never, 900, 1_000_000_000L, 600, 300, 0, 3, "key 7 \"freed\"", 700,
                        700, 700, posted, 0, List.of())));
    }

    private static final List<String> NOTES = List.of("a \"quoted\" note", "second note");

    private static long[] posted(int scale) {
        long[] posted = new long[Opcode.values().length];
        for (int i = 0; i < posted.length; i++) {
            posted[i] = scale * (i + 1L);
        }
        return posted;
    }

    private static KvConfig kvConfig() {
        return new KvConfig(List.of(KvWay.ONE_SIDED, KvWay.DELEGATED, KvWay.ALOCK), List.of(Ycsb.A, Ycsb.B), 2, 3,
                1000, 0.99, 0.75, Duration.ofSeconds(1), 64L << 20, 1, 16);
    }

    private static List<KvRun> kvRuns() {
        return List.of(
                new KvRun(new KvResult(KvWay.ONE_SIDED, Ycsb.A, 5000, 4000, 6000, 1_234_567_891L, posted(300), 27_000,
                        12_000, 15_000, 3000), latency(1), latency(2)),
                new KvRun(new KvResult(KvWay.DELEGATED, Ycsb.B, 9500, 500, 7000, 987_654_321L, posted(70), 20_000,
                        19_000, 1000, 0), latency(30), latency(40)),
                new KvRun(new KvResult(KvWay.ALOCK, Ycsb.A, 0, 0, 0, 1_000_000_000L, posted(0), 0, 0, 0, 0),
                        latency(0), latency(0)));
    }

    private static SharingConfig sharingConfig(double pLocal) {
        return new SharingConfig(List.of(SharingWay.FAA, SharingWay.MCS, SharingWay.WAITFREE), 3, 2, 64, 0, pLocal,
                Duration.ofSeconds(1), 64L << 20, 1);
    }

    private static List<SharingRun> sharingRuns() {
        return List.of(new SharingRun(1, new SharingResult(SharingWay.FAA, 12_345, 4000, 1_100_000_000L, posted(40),
                        12_345), latency(3)),
                new SharingRun(4, new SharingResult(SharingWay.MCS, 2_000, 1999, 900_000_000L, posted(90), 7000),
                        latency(60)),
                new SharingRun(4, new SharingResult(SharingWay.WAITFREE, 0, 0, 1_000_000_000L, posted(0), 0),
                        latency(0)));
    }

    @Test
    void shouldWriteTheKvReportsAsPinned() {
        assertAll(() -> assertText("kv-human", out -> KvFormat.writeHuman(kvConfig(), NOTES, kvRuns(), out)),
                () -> assertText("kv-json", out -> out.println(KvFormat.json(kvConfig(), "sim", "ConnectX-5", 2.5,
                        NOTES, kvRuns()))),
                () -> assertText("kv-json-verbs", out -> out.println(KvFormat.json(new KvConfig(List.of(KvWay.ALOCK),
                        List.of(Ycsb.B), 1, 1, 8, 0, Double.NaN, Duration.ofSeconds(1), 64L << 20, 1), "verbs", null, 1,
                        NOTES, kvRuns().subList(2, 3)))));
    }

    @Test
    void shouldWriteTheSharingReportsAsPinned() {
        assertAll(() -> assertText("sharing-human", out -> SharingFormat.writeHuman(sharingConfig(Double.NaN), NOTES,
                        sharingRuns(), out)),
                () -> assertText("sharing-json", out -> SharingFormat.writeJson(sharingConfig(Double.NaN), "sim",
                        "ConnectX-5", 2, NOTES, sharingRuns(), out)),
                () -> assertText("sharing-json-plocal", out -> SharingFormat.writeJson(sharingConfig(0.5), "verbs",
                        null, 0.25, NOTES, sharingRuns().subList(0, 1), out)));
    }

    @Test
    void shouldWriteTheDsReportsAsPinned() {
        assertAll(() -> assertText("ds-human", out -> DsFormat.writeHuman(dsReport(), out)),
                () -> assertText("ds-json", out -> DsFormat.writeJson(dsReport(), out)),
                () -> assertText("ds-sweep", out -> DsFormat.writeSweep(dsReport(), out)));
    }

    @Test
    void shouldWriteTheLockReportsAsPinned() {
        assertAll(() -> assertText("lock-human", out -> LockFormat.writeHuman(lockReport(), out)),
                () -> assertText("lock-json", out -> LockFormat.writeJson(lockReport(), out)),
                () -> assertText("lock-csv", out -> lockReport().runs().forEach(r -> out.println(LockCsv.row(r)))));
    }

    @Test
    void shouldWriteTheObjectReportsAsPinned() {
        assertAll(() -> assertText("object-human", out -> ObjectFormat.writeHuman(objectReport(), out)),
                () -> assertText("object-json", out -> ObjectFormat.writeJson(objectReport(), out)));
    }

    @Test
    void shouldWriteTheReclaimReportsAsPinned() {
        assertAll(() -> assertText("reclaim-human", out -> ReclaimFormat.writeHuman(reclaimReport(), out)),
                () -> assertText("reclaim-json", out -> ReclaimFormat.writeJson(reclaimReport(), out)));
    }

    private static void assertText(String name, Consumer<PrintWriter> write) throws IOException {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        write.accept(out);
        out.flush();
        String actual = text.toString().replace(System.lineSeparator(), "\n");
        try (InputStream in = ReportTextTest.class.getResourceAsStream("golden/" + name + ".txt")) {
            String expected = in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!actual.equals(expected)) {
                Path dir = Path.of("target", "golden-actual");
                Files.createDirectories(dir);
                Files.writeString(dir.resolve(name + ".txt"), actual);
            }
            assertNotNull(expected, "no golden/" + name + ".txt");
            assertEquals(expected, actual, name);
        }
    }
}
