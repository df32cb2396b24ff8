package io.remus.bench.lock;

import io.remus.core.fabric.Fabric;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.function.Supplier;

/**
 * Runs one lock benchmark point on a fresh fabric with one fixed-range HdrHistogram per worker
 * ({@link LatencyHistograms}; each recorded only by its own thread), merged after the run.
 */
public final class LockRunner {
    private LockRunner() {
    }

    /**
     * @param fabricName the fabric's name for the report
     * @param fabrics    makes a fresh fabric; closed after the run
     * @param config     what to run
     * @return the measured point
     * @throws InterruptedException when interrupted while the workers run
     */
    public static LockRun run(String fabricName, Supplier<Fabric> fabrics, LockBenchmarkConfig config)
            throws InterruptedException {
        int workers = config.nodes() * config.threadsPerNode();
        Histogram[] histograms = new Histogram[workers];
        for (int w = 0; w < workers; w++) {
            histograms[w] = LatencyHistograms.create();
        }
        LockBenchmarkResult result;
        try (Fabric fabric = fabrics.get()) {
            result = LockBenchmark.run(fabric, config, w -> {
                Histogram h = histograms[w];
                return nanos -> LatencyHistograms.record(h, nanos);
            });
        }
        Histogram merged = LatencyHistograms.create();
        for (Histogram h : histograms) {
            merged.add(h);
        }
        return new LockRun(fabricName, config, result.operations(), result.localOperations(),
                result.elapsedNanos() / 1e9, LatencySummary.of(merged));
    }
}
