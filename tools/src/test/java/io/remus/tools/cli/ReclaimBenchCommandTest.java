package io.remus.tools.cli;

import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.reclaim.ReclaimerKind;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.tools.plot.PngCharts;
import io.remus.tools.plot.ReclaimPlot;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReclaimBenchCommandTest {
    private static List<ReclaimBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((ReclaimBenchCommand) leaf.getCommand()).configs();
    }

    @Test
    void shouldCompareTheThreeReclaimersWithoutAStallWhenNoFlagsAreGiven() {
        List<ReclaimBenchmarkConfig> c = parse("bench", "reclaim");
        assertEquals(List.of(ReclaimerKind.NEVER, ReclaimerKind.BARRIER, ReclaimerKind.EPOCH),
                c.stream().map(ReclaimBenchmarkConfig::reclaimer).toList());
        for (ReclaimBenchmarkConfig x : c) {
            assertFalse(x.stall());
            assertEquals(2, x.nodes());
            assertEquals(2, x.threadsPerNode());
            assertEquals(Duration.ofSeconds(2), x.duration());
            assertEquals(Duration.ofMillis(200), x.epoch().lease());
            assertEquals(64 << 10, x.epoch().limitBytes());
        }
    }

    @Test
    void shouldRunEachReclaimerWithoutThenWithTheStallWhenAskedForBoth() {
        List<ReclaimBenchmarkConfig> c = parse("bench", "reclaim", "--reclaimer", "epoch,never", "--stall", "both",
                "--nodes", "3", "--threads", "4", "--ops", "500", "--lease-ms", "50", "--limit-kib", "8");
        assertEquals(4, c.size());
        assertEquals(ReclaimerKind.EPOCH, c.get(0).reclaimer());
        assertFalse(c.get(0).stall());
        assertTrue(c.get(1).stall());
        assertEquals(ReclaimerKind.NEVER, c.get(3).reclaimer());
        assertNull(c.get(0).duration());
        assertEquals(500, c.get(0).opsPerThread());
        assertEquals(3, c.get(0).nodes());
        assertEquals(4, c.get(0).threadsPerNode());
        assertEquals(Duration.ofMillis(50), c.get(0).epoch().lease());
        assertEquals(8 << 10, c.get(0).epoch().limitBytes());
        assertEquals(2 << 10, c.get(0).epoch().passBytes());
    }

    @Test
    void shouldTakeTheStallFlagAloneAsYes() {
        List<ReclaimBenchmarkConfig> c = parse("bench", "reclaim", "--reclaimer", "epoch", "--stall");
        assertEquals(1, c.size());
        assertTrue(c.getFirst().stall());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--reclaimer=hazard|unknown reclaimer 'hazard'",
            "--reclaimer=epoch,epoch|names epoch twice",
            "--stall=maybe|--stall must be no, yes or both, got 'maybe'",
            "--nodes=0|--nodes must be 1..64, got 0",
            "--threads=33|--threads must be 1..32, got 33",
            "--slots=0|--slots must be 1..4096, got 0",
            "--read-percent=101|--read-percent must be 0..100, got 101",
            "-D=0|-D must be in (0, 3600] seconds, got 0.0",
            "--ops=0|--ops must be at least 1, got 0",
            "--lease-ms=0|--lease-ms must be 1..3600000, got 0",
            "--limit-kib=0|--limit-kib must be 1..",
            "--barrier-every=0|--barrier-every must be at least 1, got 0",
            "--sample-ms=0|--sample-ms must be 1..60000, got 0",
            "--segment-mib=0|--segment-mib must be 1..1024, got 0",
            "--warmup=-1|--warmup must be in [0, 600] seconds, got -1.0",
            "--fabric=ethernet|ethernet",
            "--sim-cost=cx9|cx9",
            "--nodes=abc|abc"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of("bench", "reclaim", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench reclaim"), r.err());
    }

    @Test
    void shouldRejectAStalledBarrierRunWithAnOperationCount() {
        RemusRun r = RemusRun.of("bench", "reclaim", "--reclaimer", "barrier", "--stall", "--ops", "100");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("needs a duration"), r.err());
    }

    @Test
    void shouldRejectADurationGivenWithAnOperationCount() {
        for (String d : new String[] {"-D", "--duration"}) {
            RemusRun r = RemusRun.of("bench", "reclaim", "--fabric", "sim", "--ops", "100", d, "5");
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains("--ops 100 and -D 5.0 exclude each other"), r.err());
        }
    }

    @Test
    void shouldPrintATableWithEveryRunAndWriteThePlot(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("memory.png");
        RemusRun r = RemusRun.of("bench", "reclaim", "--fabric", "sim", "--stall", "both", "-D", "0.4",
                "--warmup", "0", "--nodes", "2", "--threads", "1", "--plot", png.toString());
        assertEquals(0, r.exit(), r.err());
        for (String label : List.of("never ", "never+stall", "barrier ", "barrier+stall", "epoch ", "epoch+stall")) {
            assertTrue(r.out().contains("\n" + label), label + " in\n" + r.out());
        }
        assertTrue(r.err().contains("wrote " + png), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(ReclaimPlot.HEIGHT, image.getHeight());
    }

    @Test
    void shouldPrintJsonWithSamplesAndNoFreedReads() {
        RemusRun r = RemusRun.of("bench", "reclaim", "--fabric", "sim", "--reclaimer", "epoch", "--ops", "2000",
                "--warmup", "0", "--threads", "1", "--json");
        assertEquals(0, r.exit(), r.err());
        String json = r.out().strip();
        assertTrue(json.startsWith("{\"tool\":\"remus\",\"test\":\"reclaim\",\"fabric\":\"sim\""), json);
        assertTrue(json.contains("\"reclaimer\":\"epoch\",\"stall\":false"), json);
        assertTrue(json.contains("\"operations\":4000,"), json);
        assertTrue(json.contains("\"violations\":0,"), json);
        assertTrue(json.contains("\"unreclaimed_bound\":" + 2 * ((64 << 10) + 32) + ","), json);
        assertTrue(json.matches("(?s).*\"samples\":\\[\\[\\d+,\\d+,\\d+\\].*"), "samples of [ms, bytes, operations]: " + json);
    }

    @Test
    void shouldRefuseAPlotFileThatCannotBeWrittenBeforeRunning(@TempDir Path dir) {
        Path png = dir.resolve("missing").resolve("memory.png");
        RemusRun r = RemusRun.of("bench", "reclaim", "--fabric", "sim", "--plot", png.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--plot"), r.err());
        assertFalse(Files.exists(png));
        assertFalse(r.out().contains("never"), "nothing ran: " + r.out());
    }
}
