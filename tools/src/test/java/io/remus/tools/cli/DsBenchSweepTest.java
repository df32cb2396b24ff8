package io.remus.tools.cli;

import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.StructureKind;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus bench ds} with lists of structures and thread counts: the pairs it runs, and the lists it refuses. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DsBenchSweepTest {
    private static List<DsBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((DsBenchCommand) leaf.getCommand()).configs();
    }

    /** @return whether {@code out} has a sweep table row of {@code label} with {@code threads} threads per node */
    static boolean hasRow(String out, String label, int threads) {
        return Pattern.compile("(?m)^  " + Pattern.quote(label) + " +" + threads + " +[0-9]+ ").matcher(out).find();
    }

    @Test
    void shouldRunEveryThreadCountOfEveryStructureStructuresOuterWhenBothAreLists() {
        List<DsBenchmarkConfig> c = parse("bench", "ds", "--structure", "hash-map, lazy-list", "--threads", "4,1,2",
                "--nodes", "3");
        assertEquals(List.of(StructureKind.HASH_MAP, StructureKind.HASH_MAP, StructureKind.HASH_MAP,
                StructureKind.LAZY_LIST, StructureKind.LAZY_LIST, StructureKind.LAZY_LIST),
                c.stream().map(DsBenchmarkConfig::structure).toList());
        assertEquals(List.of(4, 1, 2, 4, 1, 2), c.stream().map(DsBenchmarkConfig::threadsPerNode).toList());
        assertTrue(c.stream().allMatch(x -> x.nodes() == 3 && x.opsPerThread() == 8192), "the other flags apply to every run");
        assertEquals(1, parse("bench", "ds").size(), "one structure and one thread count: one run");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "--threads=1,,2|--threads: empty element in the list '1,,2'",
            "--threads=1,2,|--threads: empty element in the list '1,2,'",
            "--threads=1,0|--threads must be 1..32, got 0",
            "--threads=2,-3|--threads must be 1..32, got -3",
            "--threads=2,x|--threads: 'x' is not a whole number",
            "--threads=1,2,1|--threads: '1' is given twice in the list '1,2,1'",
            "--structure=lazy-list,b-tree|--structure: unknown structure 'b-tree'",
            "--structure=hash-map,HASH-MAP|--structure: 'HASH-MAP' is given twice (as 'hash-map' before)",
            "--structure=,hash-map|--structure: empty element in the list ',hash-map'"})
    void shouldExitWithUsageNamingTheBadElementOfAList(String flag, String message) {
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench ds"), r.err());
    }

    @Test
    void shouldRefuseMetricsWithMoreThanOneRunBeforeRunning(@TempDir Path dir) {
        Path metrics = dir.resolve("metrics.txt");
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--threads", "1,2", "--metrics", metrics.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--metrics writes one run's metrics.txt: not with 2 runs"), r.err());
        assertFalse(Files.exists(metrics));
    }

    @Test
    void shouldRefuseAPlotFileThatCannotBeWrittenBeforeRunning(@TempDir Path dir) {
        Path png = dir.resolve("missing").resolve("threads.png");
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--threads", "1,2", "--plot", png.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--plot"), r.err());
        assertFalse(Files.exists(png));
    }

    @Test
    void shouldPrintOneSweepTableOnNodeZeroWhenALauncherStartsThreeProcesses() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks((env, setup) -> new DsBenchCommand(ToolRun.NO_DEVICE,
                    env, setup), fabric, 3, "--structure", "lock-free-list,hash-map", "--threads", "1,2",
                    "--num-ops", "100", "--key-ub", "127", "--segment-mib", "16", "--join-timeout", "30");
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            String out = runs.get(0).out();
            for (String label : List.of("lock-free-list", "hash-map")) {
                for (int threads : List.of(1, 2)) {
                    assertTrue(hasRow(out, label, threads), label + " x " + threads + " in\n" + out);
                    assertTrue(out.contains("note: " + label + " x " + threads + " threads: ops by node: "
                            + 100 * threads + ", " + 100 * threads + ", " + 100 * threads), out);
                }
            }
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
        }
    }
}
