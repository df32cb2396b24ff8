package io.remus.tools.report;

import io.remus.alock.kind.LockKind;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.bench.lock.LockRun;
import io.remus.bench.object.ImplKind;
import io.remus.bench.object.ObjectBenchmarkConfig;
import io.remus.bench.object.ObjectBenchmarkResult;
import io.remus.bench.object.ObjectKind;
import io.remus.bench.object.ObjectRun;
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
import io.remus.tools.lock.LockCsv;
import io.remus.tools.lock.LockFormat;
import io.remus.tools.lock.LockReport;
import io.remus.tools.object.ObjectFormat;
import io.remus.tools.object.ObjectReport;
import io.remus.tools.reclaim.ReclaimFormat;
import io.remus.tools.reclaim.ReclaimReport;
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
 * The human, JSON and CSV text of the ds, lock, object and reclaim reports, character for character, for
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
