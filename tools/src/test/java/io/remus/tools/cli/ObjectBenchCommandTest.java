package io.remus.tools.cli;

import io.remus.bench.object.ImplKind;
import io.remus.bench.object.ObjectBenchmarkConfig;
import io.remus.bench.object.ObjectKind;
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

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ObjectBenchCommandTest {
    private static List<ObjectBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((ObjectBenchCommand) leaf.getCommand()).configs();
    }

    @Test
    void shouldCompareTheThreeImplementationsOfTheQueueWithoutAStallWhenNoFlagsAreGiven() {
        List<ObjectBenchmarkConfig> c = parse("bench", "object");
        assertEquals(List.of(ImplKind.WAITFREE, ImplKind.ALOCK, ImplKind.SPIN), c.stream().map(ObjectBenchmarkConfig::impl).toList());
        for (ObjectBenchmarkConfig x : c) {
            assertEquals(ObjectKind.QUEUE, x.object());
            assertFalse(x.stall());
            assertEquals(2, x.nodes());
            assertEquals(2, x.threadsPerNode());
            assertEquals(Duration.ofSeconds(2), x.duration());
            assertEquals(64, x.elements());
        }
    }

    @Test
    void shouldRunEachObjectWithoutThenWithTheStallForEveryImplementationWhenAskedForBoth() {
        List<ObjectBenchmarkConfig> c = parse("bench", "object", "--object", "counter,sst", "--impl", "alock,waitfree",
                "--stall", "both", "--nodes", "3", "--threads", "4", "-D", "0.5", "--value-bytes", "128");
        assertEquals(8, c.size());
        assertEquals(List.of("counter alock false", "counter waitfree false", "counter alock true", "counter waitfree true",
                        "sst alock false", "sst waitfree false", "sst alock true", "sst waitfree true"),
                c.stream().map(x -> x.object().flagName() + " " + x.impl().flagName() + " " + x.stall()).toList());
        assertEquals(3, c.getFirst().nodes());
        assertEquals(4, c.getFirst().threadsPerNode());
        assertEquals(Duration.ofMillis(500), c.getFirst().duration());
        assertEquals(128, c.getFirst().valueBytes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--object=map|unknown object 'map'",
            "--impl=mcs|unknown implementation 'mcs'",
            "--impl=spin,spin|--impl names spin twice",
            "--stall=yes|--stall must be none, one or both, got 'yes'",
            "--nodes=0|--nodes must be 1..16, got 0",
            "--threads=33|--threads must be 1..32, got 33",
            "--elements=0|--elements must be 1..1024, got 0",
            "--value-bytes=12|--value-bytes must be 8..256 and a multiple of 8, got 12",
            "-D=0|-D must be in [0.01, 3600] seconds, got 0.0",
            "--warmup=-1|--warmup must be in [0, 600] seconds, got -1.0",
            "--segment-mib=0|--segment-mib must be 1..1024, got 0",
            "--sim-cost=cx9|cx9",
            "--fabric=ethernet|ethernet"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of("bench", "object", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench object"), r.err());
    }

    @Test
    void shouldRefuseAStallWithOneWorker() {
        RemusRun r = RemusRun.of("bench", "object", "--stall", "one", "--nodes", "1", "--threads", "1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--stall needs 2 workers or more"), r.err());
    }

    @Test
    void shouldPrintATableWithEveryRunAndWriteThePlot(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("objects.png");
        RemusRun r = RemusRun.of("bench", "object", "--fabric", "sim", "--object", "stack", "--stall", "both", "-D", "0.4",
                "--warmup", "0", "--segment-mib", "16", "--plot", png.toString());
        assertEquals(0, r.exit(), r.err());
        for (String label : List.of("stack/waitfree ", "stack/alock ", "stack/spin ", "stack/waitfree+stall",
                "stack/alock+stall", "stack/spin+stall")) {
            assertTrue(r.out().contains("\n" + label), label + " in\n" + r.out());
        }
        assertTrue(r.out().contains("note: stall: worker 0 waits 200 ms"), r.out());
        assertTrue(r.err().contains("wrote " + png), r.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertTrue(image.getHeight() >= 3 * BarChart.PANEL_HEIGHT, "three panels: " + image.getHeight());
    }

    @Test
    void shouldPrintJsonWithLatenciesAndTheOthersOperationsDuringTheStall() {
        RemusRun r = RemusRun.of("bench", "object", "--fabric", "sim", "--object", "counter", "--impl", "waitfree",
                "--stall", "one", "-D", "0.4", "--warmup", "0", "--segment-mib", "16", "--json");
        assertEquals(0, r.exit(), r.err());
        String json = r.out().strip();
        assertTrue(json.startsWith("{\"tool\":\"remus\",\"test\":\"object\",\"fabric\":\"sim\""), json);
        assertTrue(json.contains("\"object\":\"counter\",\"impl\":\"waitfree\",\"stall\":true"), json);
        assertTrue(json.contains("\"latency_ns\":{\"count\":"), json);
        assertTrue(json.contains("\"rdma_per_op\":{"), json);
        assertFalse(json.contains("\"others_during_stall\":0,"), "the others went on: " + json);
    }

    @Test
    void shouldRefuseAPlotFileThatCannotBeWrittenBeforeRunning(@TempDir Path dir) {
        Path png = dir.resolve("missing").resolve("objects.png");
        RemusRun r = RemusRun.of("bench", "object", "--fabric", "sim", "--plot", png.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("--plot"), r.err());
        assertFalse(Files.exists(png));
        assertFalse(r.out().contains("queue/"), "nothing ran: " + r.out());
    }
}
