package io.remus.tools.report;

import io.remus.tools.RemusRun;
import io.remus.tools.plot.DsThreadsPlot;
import io.remus.tools.plot.PngCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench ds --structure A,B --threads 1,2 --json FILE --plot FILE} on the simulator: one table row,
 * one JSON run and one plotted point per (structure, threads) pair.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DsSweepOutputTest {
    private static final List<String> STRUCTURES = List.of("lock-free-list", "hash-map");
    private static final List<Integer> THREADS = List.of(1, 2);

    @SuppressWarnings("unchecked")
    @Test
    void shouldPrintWriteAndPlotEveryPairWhenStructuresAndThreadsAreLists(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("sweep.json");
        Path png = dir.resolve("sweep.png");
        RemusRun r = RemusRun.of("bench", "ds", "--fabric", "sim", "--structure", "lock-free-list,hash-map",
                "--threads", "1,2", "--num-ops", "100", "--key-ub", "127", "--json", json.toString(),
                "--plot", png.toString());
        assertEquals(0, r.exit(), r.err());

        String out = r.out();
        assertTrue(out.contains("  structure            threads        ops/s    p50 us    p99 us   RDMA/op   RT/op\n"),
                out);
        List<String> rows = out.lines().filter(l -> l.matches("  [a-z/-]+ +[0-9]+ +[0-9]+ .*")).toList();
        assertEquals(STRUCTURES.size() * THREADS.size(), rows.size(), out);
        int i = 0;
        for (String s : STRUCTURES) {
            for (int t : THREADS) {
                assertTrue(Pattern.matches("  " + Pattern.quote(s) + " +" + t + " .*", rows.get(i++)), s + " x " + t
                        + " in run order:\n" + out);
            }
        }
        assertFalse(out.contains("\n  lookup "), "one table, not one per run");

        Map<String, Object> root = (Map<String, Object>) Json.parse(Files.readString(json));
        assertEquals(Set.of("tool", "test", "fabric", "notes", "runs"), root.keySet());
        List<Map<String, Object>> runs = (List<Map<String, Object>>) root.get("runs");
        List<String> pairs = new ArrayList<>();
        for (Map<String, Object> run : runs) {
            pairs.add(run.get("structure") + " x " + ((Number) run.get("threads_per_node")).intValue());
            assertEquals(2 * ((Number) run.get("threads_per_node")).doubleValue() * 100,
                    ((Number) run.get("operations")).doubleValue(), "2 nodes x threads x 100 operations: " + run);
        }
        assertEquals(List.of("lock-free-list x 1", "lock-free-list x 2", "hash-map x 1", "hash-map x 2"), pairs);

        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(DsThreadsPlot.HEIGHT, image.getHeight());
        assertTrue(r.err().contains("wrote " + json) && r.err().contains("wrote " + png), r.err());
    }
}
