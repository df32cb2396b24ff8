package io.remus.bench.object;

import io.remus.core.fabric.Fabric;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.function.Supplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one object benchmark on a fresh fabric with one fixed-range HdrHistogram per worker
 * ({@link LatencyHistograms}; each recorded only by its own thread), merged after the run.
 */
public final class ObjectRunner {
    private ObjectRunner() {
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run
     * @param config  what to run
     * @return the run
     * @throws InterruptedException when interrupted while the workers run
     */
    public static ObjectRun run(Supplier<Fabric> fabrics, ObjectBenchmarkConfig config) throws InterruptedException {
        Histogram[] histograms = new Histogram[config.workers()];
        for (int w = 0; w < histograms.length; w++) {
            histograms[w] = LatencyHistograms.create();
        }
        ObjectBenchmarkResult result;
        try (Fabric fabric = fabrics.get()) {
            result = ObjectBenchmark.run(fabric, config, w -> {
                Histogram h = histograms[w];
                return nanos -> LatencyHistograms.record(h, nanos);
            });
        }
        Histogram merged = LatencyHistograms.create();
        for (Histogram h : histograms) {
            merged.add(h);
        }
        return new ObjectRun(result, LatencySummary.of(merged));
    }

    /**
     * Runs the warm-ups of {@code configs} ({@link ObjectBenchmarkConfig#warmUps}) unreported, then each
     * configuration, every run on a fresh fabric.
     *
     * @param fabrics makes a fresh fabric for each run; closed after it
     * @param configs what to measure, in order
     * @param warmup  how long each warm-up runs; null for none
     * @return one run per configuration, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<ObjectRun> run(Supplier<Fabric> fabrics, List<ObjectBenchmarkConfig> configs, Duration warmup)
            throws InterruptedException {
        if (warmup != null) {
            for (ObjectBenchmarkConfig w : ObjectBenchmarkConfig.warmUps(configs, warmup)) {
                run(fabrics, w);
            }
        }
        List<ObjectRun> runs = new ArrayList<>();
        for (ObjectBenchmarkConfig config : configs) {
            runs.add(run(fabrics, config));
        }
        return runs;
    }
}
