package io.remus.tools.plot;

import io.remus.alock.kind.LockKind;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.OpType;
import io.remus.bench.structure.StructureKind;
import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DsThreadsPlotTest {
    /** A run of {@code structure} with {@code threads} per node that did {@code opsPerSecond} for one second. */
    static DsRun run(StructureKind structure, int threads, long opsPerSecond) {
        DsBenchmarkConfig config = new DsBenchmarkConfig(structure, LockKind.SPIN, 2, threads, true, null, 100, 50,
                50, 50, 0, 127, 0, null, 64, 1L << 20, 1);
        long[] outcomes = new long[2 * OpType.values().length];
        outcomes[2 * OpType.INSERT.ordinal()] = opsPerSecond;
        long[] costs = new long[OpType.values().length * Cost.values().length];
        LatencySummary none = new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        return new DsRun(new DsBenchmarkResult(config, 1_000_000_000L, 0, outcomes, costs), Map.of(), none);
    }

    private static List<Number> y(CategoryChart chart, String series) {
        CategorySeries s = chart.getSeriesMap().get(series);
        return s == null ? null : new ArrayList<>(s.getYData());
    }

    @Test
    void shouldDrawOneSeriesPerStructureOverTheThreadCountsInAscendingOrder() {
        CategoryChart chart = DsThreadsPlot.chart("t", List.of(run(StructureKind.LAZY_LIST, 4, 300),
                run(StructureKind.LAZY_LIST, 1, 100), run(StructureKind.HASH_MAP, 1, 500),
                run(StructureKind.HASH_MAP, 2, 750), run(StructureKind.HASH_MAP, 4, 1000)));
        assertEquals(List.of("lazy-list/spin", "hash-map"), new ArrayList<>(chart.getSeriesMap().keySet()),
                "one series per structure, in the order they first ran");
        assertEquals(List.of("1", "2", "4"), new ArrayList<>(chart.getSeriesMap().get("hash-map").getXData()));
        assertEquals(List.of(500.0, 750.0, 1000.0), y(chart, "hash-map"));
        assertEquals(Arrays.asList(100.0, null, 300.0), y(chart, "lazy-list/spin"), "no lazy-list run at 2 threads");
        assertEquals("worker threads per node (--threads)", chart.getXAxisTitle());
        assertEquals("operations per second, all workers", chart.getYAxisTitle());
        assertFalse(chart.getStyler().isYAxisLogarithmic(), "a span of 10 times is drawn linear");
        assertEquals(0.0, chart.getStyler().getYAxisMin());
    }

    @Test
    void shouldDrawTheThroughputAxisLogarithmicWhenTheRunsSpanMoreThanTenfold() {
        CategoryChart chart = DsThreadsPlot.chart("t", List.of(run(StructureKind.LOCK_FREE_LIST, 1, 50),
                run(StructureKind.HASH_MAP, 1, 800)));
        assertTrue(chart.getStyler().isYAxisLogarithmic());
        assertEquals(10.0, chart.getStyler().getYAxisMin(), "the decade below 50");
        assertEquals(1000.0, chart.getStyler().getYAxisMax(), "the decade above 800");
        assertEquals("operations per second, all workers [log]", chart.getYAxisTitle());
    }

    @Test
    void shouldWriteAPngOfTheChartsSize(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("threads.png");
        DsThreadsPlot.write("t", List.of(run(StructureKind.HASH_MAP, 1, 10), run(StructureKind.HASH_MAP, 2, 20)), png);
        assertTrue(Files.size(png) > 0);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(PngCharts.WIDTH, image.getWidth());
        assertEquals(DsThreadsPlot.HEIGHT, image.getHeight());
    }

    @Test
    void shouldRejectNoRunsAndTwoRunsOfOnePoint() {
        assertThrows(BadArgumentException.class, () -> DsThreadsPlot.chart("t", List.of()));
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> DsThreadsPlot.chart("t",
                List.of(run(StructureKind.HASH_MAP, 2, 10), run(StructureKind.HASH_MAP, 2, 20))));
        assertTrue(e.getMessage().contains("hash-map with 2 threads"), e.getMessage());
    }
}
