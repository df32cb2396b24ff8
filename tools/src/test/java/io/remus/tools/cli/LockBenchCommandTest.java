package io.remus.tools.cli;

import io.remus.alock.kind.LockKind;
import io.remus.bench.lock.LockBenchmarkConfig;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.tools.lock.LockCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockBenchCommandTest {
    private static List<LockBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((LockBenchCommand) leaf.getCommand()).configs();
    }

    @Test
    void shouldRunOneAlockPointWhenNoFlagsAreGiven() {
        List<LockBenchmarkConfig> c = parse("bench", "lock");
        assertEquals(1, c.size());
        LockBenchmarkConfig only = c.getFirst();
        assertEquals(LockKind.ALOCK, only.kind());
        assertEquals(2, only.nodes());
        assertEquals(2, only.threadsPerNode());
        assertEquals(0.9, only.pLocal());
        assertEquals(100, only.keys());
        assertEquals(8, only.localBudget());
        assertEquals(8, only.remoteBudget());
        assertEquals(Duration.ofSeconds(2), only.duration());
    }

    @Test
    void shouldTakeEveryFlagWhenGiven() {
        LockBenchmarkConfig c = parse("bench", "lock", "--lock", "mcs", "--nodes", "3", "--threads", "4",
                "--p-local", "0.85", "--keys", "30", "--local-budget", "5", "--remote-budget", "7", "-D", "0.5",
                "--seed", "9", "--cs-ops", "2").getFirst();
        assertEquals(new LockBenchmarkConfig(LockKind.MCS, 3, 4, 0.85, 30, 5, 7, Duration.ofMillis(500), 9, 2), c);
    }

    @Test
    void shouldRunEveryCombinationWithLockKindsInnermostWhenListsAreGiven() {
        List<LockBenchmarkConfig> c = parse("bench", "lock", "--lock", "alock,spin,mcs", "--p-local", "1,0.9",
                "--keys", "10,100");
        assertEquals(12, c.size());
        assertEquals(List.of(LockKind.ALOCK, LockKind.SPIN, LockKind.MCS), c.subList(0, 3).stream().map(LockBenchmarkConfig::kind).toList());
        assertEquals(1.0, c.get(0).pLocal());
        assertEquals(10, c.get(0).keys());
        assertEquals(100, c.get(3).keys());
        assertEquals(0.9, c.get(11).pLocal());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--lock=ticket", "--nodes=0", "--nodes=65", "--threads=0", "--p-local=1.5",
            "--p-local=-0.1", "--p-local=NaN", "--keys=1", "--local-budget=0", "--remote-budget=0", "-D=0", "-D=-1",
            "--sim-latency-ns=-1", "--sim-cost=bogus", "--warmup=-1", "--fabric=ethernet", "--keys=abc", "--bogus",
            "--cs-ops=-1", "--cs-ops=65", "--sim-time=bogus", "--sim-time=virtual"})
    void shouldExitWithUsageWhenAFlagIsBad(String flag) {
        RemusRun r = RemusRun.of("bench", "lock", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("Usage: remus bench lock"), r.err());
    }

    @Test
    void shouldPrintTheColumnsInTheDocumentedOrderWhenAsked() {
        RemusRun r = RemusRun.of("bench", "lock", "--csv-columns");
        assertEquals(0, r.exit());
        assertEquals(String.join(",", LockCsv.COLUMNS), r.out().strip());
    }

    @Test
    void shouldAppendOneCsvRowPerRunAndPrintRatiosWhenRunOnSim(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("grid.csv");
        Files.writeString(csv, "# earlier\n");
        RemusRun r = RemusRun.of("bench", "lock", "--fabric", "sim", "--lock", "alock,spin,mcs", "--p-local", "1,0.5",
                "--keys", "8", "-D", "0.2", "--warmup", "0.1", "--csv", csv.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("ALock throughput over the baselines"), r.out());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(7, lines.size());
        List<LockCsv.Row> rows = LockCsv.parse(lines);
        assertEquals(List.of("alock", "spin", "mcs", "alock", "spin", "mcs"), rows.stream().map(LockCsv.Row::lock).toList());
        for (String line : lines.subList(1, 7)) {
            String[] f = line.split(",");
            assertEquals(LockCsv.COLUMNS.size(), f.length, line);
            assertEquals("sim", f[0]);
            assertTrue(Long.parseLong(f[9]) > 0, "pairs ran: " + line);
            assertTrue(Double.parseDouble(f[13]) <= Double.parseDouble(f[16]), "median <= p99: " + line);
        }
        assertEquals(1.0, rows.get(0).pLocal());
        assertEquals(0.5, rows.get(5).pLocal());
    }

    @Test
    void shouldRefuseAnUnknownClockNamingTheValue() {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "bogus", "--fabric", "sim", "-D", "0.1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time") && r.err().contains("'bogus'"), r.err());
        assertFalse(r.err().contains("Unknown option"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeOnVerbsNamingTheValueBeforeTheRun() {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "verbs",
                "-d", "no_such_dev0", "-D", "0.1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("verbs"), r.err());
        assertTrue(r.err().contains("Usage: remus bench lock"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeWithoutACostModelNamingTheModel() {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "virtual", "--fabric", "sim", "-D", "0.1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("model none"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeWithCsvRows(@TempDir Path dir) {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "sim",
                "-D", "0.002", "--csv", dir.resolve("grid.csv").toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--csv"), r.err());
        assertTrue(Files.notExists(dir.resolve("grid.csv")));
    }

    @Test
    void shouldSayVirtualTimeAboveTheTableWhenRunInVirtualTime() {
        RemusRun r = RemusRun.of("bench", "lock", "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "sim",
                "--nodes", "2", "--threads", "2", "-D", "0.002", "--seed", "5");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, CPU charged as model: "),
                r.out());
        assertTrue(r.out().contains(", seed 5"), r.out());
        assertTrue(r.out().contains("usec of virtual time"), r.out());
        assertFalse(r.out().contains("warm-up: each lock kind ran"), r.out());
    }

    @Test
    void shouldFailWithExitOneWhenVerbsIsAskedOfAHostWithoutTheDevice() {
        RemusRun r = RemusRun.of("bench", "lock", "--fabric", "verbs", "-d", "no_such_dev0", "-D", "0.1", "--warmup", "0");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith("remus: "), r.err());
    }
}
