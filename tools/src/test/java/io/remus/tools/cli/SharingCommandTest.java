package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.SharingConfig;
import io.remus.bench.object.SharingWay;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SharingCommandTest {
    private static List<SharingConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((SharingCommand) leaf.getCommand()).configs();
    }

    @Test
    void shouldRunEveryWayOnTwoNodesWithTwoThreadsWhenNoFlagsAreGiven() {
        List<SharingConfig> c = parse("experiment", "sharing");
        assertEquals(1, c.size());
        SharingConfig x = c.getFirst();
        assertEquals(List.of(SharingWay.values()), x.ways());
        assertEquals(2, x.nodes());
        assertEquals(2, x.threadsPerNode());
        assertEquals(64, x.counters());
        assertEquals(0.0, x.zipfTheta());
        assertFalse(x.usesPLocal());
        assertEquals(Duration.ofSeconds(2), x.duration());
    }

    @Test
    void shouldMakeOneConfigurationPerThreadCountWhenGivenAList() {
        List<SharingConfig> c = parse("experiment", "sharing", "--ways", "mcs,faa", "--threads", "1,4", "--nodes", "3",
                "--counters", "1000", "--zipf", "0.99", "--p-local", "0.9", "-D", "0.5", "--seed", "9");
        assertEquals(List.of(1, 4), c.stream().map(SharingConfig::threadsPerNode).toList());
        for (SharingConfig x : c) {
            assertEquals(List.of(SharingWay.MCS, SharingWay.FAA), x.ways());
            assertEquals(3, x.nodes());
            assertEquals(1000, x.counters());
            assertEquals(0.99, x.zipfTheta());
            assertEquals(0.9, x.pLocal());
            assertEquals(Duration.ofMillis(500), x.duration());
            assertEquals(9, x.seed());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--ways=faa,ticket|unknown way 'ticket'",
            "--ways=spin,spin|'spin' is given twice",
            "--threads=0|--threads must be 1..32, got 0",
            "--threads=2,x|'x' is not a whole number",
            "--zipf=-0.1|--zipf must be in [0, 1), got -0.1",
            "--zipf=1|--zipf must be in [0, 1), got 1.0",
            "--p-local=2|--p-local must be in [0, 1], got 2.0",
            "--nodes=0|--nodes must be 1..16, got 0",
            "--counters=0|--counters must be 1..1048576, got 0",
            "-D=0|--duration must be in [0.01, 3600] seconds, got 0.0",
            "--sim-cost=cx9|cx9",
            "--fabric=verbs --sim-cost=none|--sim-cost none is for --fabric sim only; this run is on verbs",
            "-d=rxe0|-d rxe0 is for --fabric verbs only; this run is on sim",
            "--fabric=ethernet|--fabric must be sim or verbs, got 'ethernet'",
            "--sim-time=bogus|'bogus'",
            "--sim-time=virtual --fabric=verbs|--sim-time virtual runs the simulator's threads in virtual time; not with --fabric verbs",
            "--sim-time=virtual --sim-cost=none|--sim-time virtual: virtual time needs a cost model that charges time, got model none"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of(("experiment sharing " + flag).split(" "));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus experiment sharing"), r.err());
    }

    @Test
    void shouldPrintATableWithOneRowPerWayAndWriteThePlot(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("sharing.png");
        RemusRun r = RemusRun.of("experiment", "sharing", "--sim-cost", "none", "--counters", "4", "-D", "0.2",
                "--segment-mib", "16", "--plot", png.toString());
        assertEquals(0, r.exit(), r.err());
        for (SharingWay way : SharingWay.values()) {
            assertEquals(1, r.out().lines().filter(l -> l.startsWith(String.format("%-8d %-10s ", 2, way.flagName())))
                    .count(), way.flagName() + " in\n" + r.out());
        }
        assertTrue(r.out().contains("cost model none"), r.out());
        assertTrue(r.out().contains("check: every counter of every way ended at exactly"), r.out());
        assertTrue(r.err().contains("wrote " + png), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertTrue(image.getHeight() >= 3 * BarChart.PANEL_HEIGHT, "three panels: " + image.getHeight());
    }

    @Test
    void shouldPrintJsonWithOneRunPerWayAndThreadCount() {
        RemusRun r = RemusRun.of("experiment", "sharing", "--sim-cost", "none", "--ways", "faa,delegated",
                "--threads", "1,2", "--counters", "4", "--p-local", "0.5", "-D", "0.1", "--segment-mib", "16", "--json");
        assertEquals(0, r.exit(), r.err());
        String json = r.out().strip();
        assertTrue(json.startsWith("{\"tool\":\"remus\",\"test\":\"sharing\",\"fabric\":\"sim\",\"cost_model\":\"none\","
                + "\"nodes\":2,\"counters\":4,"), json);
        assertTrue(json.contains("\"p_local\":0.500000"), json);
        for (String run : List.of("\"way\":\"faa\",\"threads_per_node\":1,", "\"way\":\"delegated\",\"threads_per_node\":1,",
                "\"way\":\"faa\",\"threads_per_node\":2,", "\"way\":\"delegated\",\"threads_per_node\":2,")) {
            assertTrue(json.contains(run), run + " in " + json);
        }
        assertTrue(json.contains("\"rdma_per_increment\":{\"read\":"), json);
        assertTrue(json.contains("\"fetch_and_add\":1.000000"), "faa's one atomic per increment: " + json);
        assertTrue(json.contains("\"round_trips_per_increment\":"), json);
        assertTrue(json.endsWith("}]}"), json);
    }

    @Test
    void shouldRunOnTheSimulatorWithTheConnectX5CostModelWhenNoFabricIsGiven() {
        RemusRun r = RemusRun.of("experiment", "sharing", "--ways", "faa", "--threads", "1", "--counters", "2", "-D", "0.05",
                "--segment-mib", "16", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().strip().startsWith("{\"tool\":\"remus\",\"test\":\"sharing\",\"fabric\":\"sim\","
                + "\"cost_model\":\"connectx5\","), r.out());
    }

    @Test
    void shouldRefuseAPlotFileThatCannotBeWrittenBeforeRunning(@TempDir Path dir) {
        Path png = dir.resolve("missing").resolve("sharing.png");
        RemusRun r = RemusRun.of("experiment", "sharing", "--plot", png.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--plot"), r.err());
        assertFalse(Files.exists(png));
    }
    @Test
    void shouldLabelEveryFigureAsVirtualTimeWithModelCpuChargeAndSeedWhenRunInVirtualTime() {
        String[] args = {"experiment", "sharing", "--sim-time", "virtual", "--sim-cost", "connectx5", "--ways",
                "faa,delegated", "--threads", "1", "--counters", "2", "-D", "0.01", "--segment-mib", "16", "--seed", "5"};
        RemusRun human = RemusRun.of(args);
        assertEquals(0, human.exit(), human.err());
        String label = SimTime.virtual(SimCostModel.CONNECTX5, 5).label();
        assertTrue(human.out().contains("every figure below is " + label), human.out());
        assertTrue(human.out().contains("usec of virtual time"), human.out());
        String[] withJson = java.util.Arrays.copyOf(args, args.length + 1);
        withJson[args.length] = "--json";
        RemusRun json = RemusRun.of(withJson);
        assertEquals(0, json.exit(), json.err());
        assertTrue(json.out().contains("\"cost_model\":\"connectx5\",\"time\":\"" + label + "\","), json.out());
    }

    @Test
    void shouldNotLabelWallClockFiguresAsVirtualTime() {
        RemusRun r = RemusRun.of("experiment", "sharing", "--ways", "faa", "--threads", "1", "--counters", "2", "-D",
                "0.05", "--segment-mib", "16", "--json");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("\"time\":"), r.out());
    }
}
