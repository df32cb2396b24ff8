package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvWay;
import io.remus.bench.structure.Ycsb;
import io.remus.core.sim.SimCostModel;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.tools.plot.BarChart;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KvCommandTest {
    private static KvConfig parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((KvCommand) leaf.getCommand()).config();
    }

    @Test
    void shouldRunEveryWayUnderAAndBWhenNoFlagsAreGiven() {
        KvConfig c = parse("experiment", "kv");
        assertEquals(List.of(KvWay.values()), c.ways());
        assertEquals(List.of(Ycsb.A, Ycsb.B), c.workloads());
        assertEquals(2, c.nodes());
        assertEquals(2, c.threadsPerNode());
        assertEquals(1000, c.keys());
        assertEquals(0.0, c.zipfTheta());
        assertFalse(c.usesPLocal());
        assertEquals(Duration.ofSeconds(2), c.duration());
        assertEquals(8, c.valueBytes());
    }

    @Test
    void shouldTakeEveryFlagWhenGiven() {
        KvConfig c = parse("experiment", "kv", "--ways", "alock,one-sided", "--workload", "b", "--threads", "3",
                "--nodes", "3", "--keys", "99", "--zipf", "0.99", "--p-local", "0.5", "-D", "0.5", "--seed", "9",
                "--value-size", "1024");
        assertEquals(List.of(KvWay.ALOCK, KvWay.ONE_SIDED), c.ways());
        assertEquals(List.of(Ycsb.B), c.workloads());
        assertEquals(3, c.threadsPerNode());
        assertEquals(3, c.nodes());
        assertEquals(99, c.keys());
        assertEquals(0.99, c.zipfTheta());
        assertEquals(0.5, c.pLocal());
        assertEquals(Duration.ofMillis(500), c.duration());
        assertEquals(9, c.seed());
        assertEquals(1024, c.valueBytes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--ways=one-sided,cas|unknown way 'cas'",
            "--workload=A,C|--workload must be A or B (reads and updates only), got C",
            "--workload=A,Z|unknown YCSB workload 'Z'",
            "--threads=0|--threads must be 1..32, got 0",
            "--keys=0|--keys must be 1..65536, got 0",
            "--keys=1|--keys 1 < --nodes 2",
            "--zipf=1|--zipf must be in [0, 1), got 1.0",
            "--p-local=-1|--p-local must be in [0, 1], got -1.0",
            "--nodes=17|--nodes must be 1..16, got 17",
            "--value-size=100|--value-size must be a multiple of 8 in 8..4096, got 100",
            "--value-size=4096 --keys=1000|500 keys x --value-size 4096",
            "-D=0|--duration must be in [0.01, 3600] seconds, got 0.0",
            "--sim-cost=cx9|cx9",
            "--fabric=verbs --sim-cost=none|--sim-cost none is for --fabric sim only; this run is on verbs",
            "-d=rxe0|-d rxe0 is for --fabric verbs only; this run is on sim",
            "--fabric=ethernet|--fabric must be sim or verbs, got 'ethernet'",
            "--sim-time=bogus|'bogus'",
            "--sim-time=virtual --fabric=verbs|--sim-time virtual runs the simulator's threads in virtual time; not with --fabric verbs",
            "--sim-time=virtual --sim-cost=none|--sim-time virtual: virtual time needs a cost model that charges time, got model none"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of(("experiment kv " + flag).split(" "));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus experiment kv"), r.err());
    }

    @Test
    void shouldPrintATableAndWriteTheJsonAndThePlot(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("kv.png");
        Path json = dir.resolve("kv.json");
        RemusRun r = RemusRun.of("experiment", "kv", "--sim-cost", "none", "--keys", "8", "-D", "0.1",
                "--p-local", "0", "--segment-mib", "16", "--json", json.toString(), "--plot", png.toString());
        assertEquals(0, r.exit(), r.err());
        for (String workload : List.of("A", "B")) {
            for (KvWay way : KvWay.values()) {
                assertEquals(1, r.out().lines().filter(l -> l.startsWith(String.format("%-4s %-10s ", workload,
                        way.flagName()))).count(), workload + " " + way.flagName() + " in\n" + r.out());
            }
        }
        assertTrue(r.out().contains("cost model none"), r.out());
        assertTrue(r.out().contains("check: every read returned a whole value written for its key"), r.out());
        assertTrue(r.out().contains("8-byte values (the delegated way's argument word)"), r.out());
        String text = Files.readString(json, StandardCharsets.UTF_8).strip();
        assertTrue(text.startsWith("{\"tool\":\"remus\",\"test\":\"kv\",\"fabric\":\"sim\",\"cost_model\":\"none\","
                + "\"nodes\":2,\"threads_per_node\":2,\"keys\":8,\"value_bytes\":8,"), text);
        assertTrue(text.contains("{\"workload\":\"A\",\"way\":\"one-sided\","), text);
        assertTrue(text.contains("{\"workload\":\"B\",\"way\":\"alock\","), text);
        assertTrue(text.contains("\"round_trips_per_read\":2.000000"), "one-sided remote get: " + text);
        assertTrue(text.contains("\"memory_round_trips_per_update\":"), text);
        assertTrue(text.endsWith("}]}"), text);
        assertTrue(r.err().contains("wrote " + png), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertTrue(image.getHeight() >= 5 * BarChart.PANEL_HEIGHT, "five panels: " + image.getHeight());
    }

    @Test
    void shouldRefuseAJsonFileThatCannotBeWrittenBeforeRunning(@TempDir Path dir) {
        Path file = dir.resolve("missing").resolve("kv.json");
        RemusRun r = RemusRun.of("experiment", "kv", "--json", file.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--json"), r.err());
        assertFalse(Files.exists(file));
    }
    @Test
    void shouldLabelEveryFigureAsVirtualTimeWithModelCpuChargeAndSeedWhenRunInVirtualTime(@TempDir Path dir)
            throws IOException {
        Path json = dir.resolve("kv.json");
        RemusRun r = RemusRun.of("experiment", "kv", "--sim-time", "virtual", "--sim-cost", "connectx5", "--ways",
                "delegated", "--workload", "A", "--threads", "1", "--keys", "8", "-D", "0.01", "--segment-mib", "16",
                "--seed", "5", "--json", json.toString());
        assertEquals(0, r.exit(), r.err());
        String label = SimTime.virtual(SimCostModel.CONNECTX5, 5).label();
        assertTrue(r.out().contains("every figure below is " + label), r.out());
        assertTrue(r.out().contains("microseconds of virtual time"), r.out());
        String text = Files.readString(json, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"cost_model\":\"connectx5\",\"time\":\"" + label + "\","), text);
    }
}
