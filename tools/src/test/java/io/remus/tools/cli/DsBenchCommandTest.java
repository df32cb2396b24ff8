package io.remus.tools.cli;

import io.remus.alock.kind.LockKind;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.StructureKind;
import io.remus.bench.structure.Ycsb;
import io.remus.core.sim.SimFabric;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DsBenchCommandTest {
    private static DsBenchmarkConfig parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((DsBenchCommand) leaf.getCommand()).config();
    }

    @Test
    void shouldTakeRemusIntsetDefaultsWhenNoFlagsAreGiven() {
        DsBenchmarkConfig c = parse("bench", "ds");
        assertEquals(StructureKind.LAZY_LIST, c.structure());
        assertEquals(LockKind.ALOCK, c.lock());
        assertEquals(8192, c.opsPerThread());
        assertNull(c.duration());
        assertEquals(50, c.prefillPercent());
        assertEquals(50, c.insertPercent());
        assertEquals(50, c.removePercent());
        assertEquals(0, c.keyLb());
        assertEquals(1024, c.keyUb());
        assertEquals(0, c.zipfTheta());
        assertNull(c.ycsb());
        assertEquals(2, c.nodes());
        assertEquals(2, c.threadsPerNode());
        assertTrue(c.homeWorkers());
    }

    @Test
    void shouldTakeEveryFlagWhenGiven() {
        DsBenchmarkConfig c = parse("bench", "ds", "--structure", "hash-map", "--ycsb", "d", "-D", "0.5", "--zipf",
                "0.8", "--value-size", "100", "--key-lb", "10", "--key-ub", "99", "--nodes", "3", "--threads", "4",
                "--no-home-workers", "--seed", "9");
        assertEquals(StructureKind.HASH_MAP, c.structure());
        assertEquals(Ycsb.D, c.ycsb());
        assertEquals(Duration.ofMillis(500), c.duration());
        assertEquals(0, c.opsPerThread());
        assertEquals(0.8, c.zipfTheta());
        assertEquals(100, c.valueBytes());
        assertEquals(90, c.keys());
        assertEquals(3, c.nodes());
        assertEquals(4, c.threadsPerNode());
        assertFalse(c.homeWorkers());
        assertEquals(8, c.workers());
        c = parse("bench", "ds", "--lock", "mcs", "--insert", "10", "--remove", "20", "--prefill", "30");
        assertEquals(LockKind.MCS, c.lock());
        assertEquals(10, c.insertPercent());
        assertEquals(20, c.removePercent());
        assertEquals(30, c.prefillPercent());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--structure=b-link-tree|unknown structure 'b-link-tree'",
            "--lock=ticket|--lock: ",
            "--ycsb=E|unknown YCSB workload 'E'",
            "--insert=101|--insert must be 0..100, got 101",
            "--remove=60|--remove must be 0..100 - --insert (50), got 60",
            "--prefill=-1|--prefill must be 0..100, got -1",
            "--key-lb=-5|--key-lb must be at least 0, got -5",
            "--key-ub=-1|--key-ub must be --key-lb (0)",
            "--zipf=1.5|--zipf must be 0 (uniform) or in (0, 1), got 1.5",
            "--value-size=5000|--value-size must be 0..4096, got 5000",
            "--threads=0|--threads must be 1..32, got 0",
            "--nodes=0|--nodes must be 1..64, got 0",
            "--num-ops=0|--num-ops must be at least 1, got 0",
            "-D=0|-D must be in [0.01, 3600] seconds, got 0.0",
            "--segment-mib=0|--segment-mib must be 1..1024, got 0",
            "--sim-cost=cx9|cx9",
            "--zipf=abc|abc"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench ds"), r.err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--num-ops 100 -D 1|--num-ops 100 and -D 1.0 exclude each other",
            "-D 0.5 --num-ops 8192|--num-ops 8192 and -D 0.5 exclude each other",
            "--structure hash-map --ycsb A --prefill 10|--prefill and --ycsb A exclude each other",
            "--structure hash-map --ycsb B --insert 0|--insert and --ycsb B exclude each other",
            "--structure hash-map --ycsb C --remove 5|--remove and --ycsb C exclude each other"})
    void shouldExitWithUsageWhenTwoFlagsExcludeEachOther(String flags, String message) {
        RemusRun r = RemusRun.of(("bench ds --fabric sim " + flags).split(" "));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench ds"), r.err());
    }

    @Test
    void shouldRefuseYcsbOnAListNamingTheStructure() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "lock-free-list", "--ycsb", "A");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("lock-free-list"), r.err());
    }

    @Test
    void shouldPrintOneRowPerOperationTypeWhenALazyListRuns() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "lazy-list", "--lock", "spin",
                "--num-ops", "300", "--key-ub", "127", "--insert", "20", "--remove", "20", "--threads", "1");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("lazy-list/spin: 2 nodes x 1 threads"), r.out());
        for (String row : List.of("\n  lookup ", "\n  insert ", "\n  remove ", "\n  all ")) {
            assertTrue(r.out().contains(row), row + " in\n" + r.out());
        }
        assertTrue(r.out().contains(" 600 ops in "), r.out());
    }

    @Test
    void shouldRunOnTheSimulatorsCostModelAndSayItWhenAskedFor() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--sim-cost", "connectx5", "--structure", "hash-map",
                "--num-ops", "50", "--key-ub", "63", "--threads", "1");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("sim cost model connectx5"), r.out());
    }

    @Test
    void shouldLoadTheHashMapToHalfItsSlotsWhenYcsbCPrefillsFourThousandKeys() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "hash-map", "--ycsb", "C", "--nodes", "2",
                "--threads", "1", "--num-ops", "2000", "--key-ub", "4095");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.err().contains("MapFullException"), r.err());
        assertTrue(r.out().contains(" 4000 ops in "), r.out());
    }

    @Test
    void shouldPrintOneRowPerOperationTypeWhenASkipListRuns() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "skip-list",
                "--num-ops", "300", "--key-ub", "127", "--insert", "20", "--remove", "20", "--threads", "1");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("skip-list: 2 nodes x 1 threads"), r.out());
        for (String row : List.of("\n  lookup ", "\n  insert ", "\n  remove ", "\n  all ")) {
            assertTrue(r.out().contains(row), row + " in\n" + r.out());
        }
    }

    @Test
    void shouldNameEveryStructureInTheHelpDescription() {
        RemusRun r = RemusRun.of("bench", "ds", "--help");
        assertEquals(0, r.exit(), r.err());
        String description = line(r.out(), "Sets ");
        for (String structure : List.of("lazy list", "lock-free list", "skip list", "hash map")) {
            assertTrue(description.contains(structure), structure + " in\n" + description);
        }
    }

    @Test
    void shouldSayInWordsWhatAnUpdateAndTheOtherOperationsDid() {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "hash-map", "--ycsb", "A",
                "--num-ops", "200", "--key-ub", "63", "--threads", "1");
        assertEquals(0, r.exit(), r.err());
        String update = line(r.out(), "  update ");
        assertTrue(update.matches(".* 0 inserted, \\d+ replaced .*"), "every key was loaded: " + update);
        assertTrue(line(r.out(), "  lookup ").matches(".* \\d+ found, 0 missing .*"), r.out());
        assertFalse(r.out().contains(" true "), r.out());
        assertTrue(line(r.out(), "  op ").contains("outcomes"), r.out());
    }

    private static String line(String out, String start) {
        return out.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(start + " in\n" + out));
    }

    @Test
    void shouldRefuseAnUnwritableMetricsFileBeforeRunning(@TempDir Path dir) {
        Path file = dir.resolve("missing").resolve("metrics.txt");
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--metrics", file.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--metrics"), r.err());
        assertFalse(Files.exists(file));
    }

    @Test
    void shouldPrintOneAggregatedReportOnNodeZeroWhenALauncherStartsThreeProcesses(@TempDir Path dir) throws Exception {
        Path metrics = dir.resolve("metrics.txt");
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks((env, setup) -> new DsBenchCommand(ToolRun.NO_DEVICE,
                    env, setup), fabric, 3, "--structure", "hash-map", "--ycsb", "B", "--num-ops", "200", "--key-ub",
                    "255", "--threads", "2", "--segment-mib", "16", "--join-timeout", "30", "--metrics",
                    metrics.toString());
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            assertTrue(runs.get(0).out().contains("one process per node: 3 nodes"), runs.get(0).out());
            assertTrue(runs.get(0).out().contains(" 1200 ops in "), "every node's operations: " + runs.get(0).out());
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            assertTrue(Files.readString(metrics).contains("op_count: 1200\n"), Files.readString(metrics));
        }
    }
}
