package io.remus.tools.lock;

import io.remus.alock.bench.LockBenchmark;
import io.remus.alock.bench.LockBenchmarkConfig;
import io.remus.alock.bench.LockBenchmarkResult;
import io.remus.core.fabric.Fabric;
import io.remus.tools.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.function.Supplier;

/**
 * Runs one lock benchmark point on a fresh fabric with one HdrHistogram per worker (each recorded
 * only by its own thread), merged after the run.
 */
public final class LockRunner {
    private static final int SIGNIFICANT_DIGITS = 3;

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
            histograms[w] = new Histogram(SIGNIFICANT_DIGITS);
        }
        LockBenchmarkResult result;
        try (Fabric fabric = fabrics.get()) {
            result = LockBenchmark.run(fabric, config, w -> histograms[w]::recordValue);
        }
        Histogram merged = new Histogram(SIGNIFICANT_DIGITS);
        for (Histogram h : histograms) {
            merged.add(h);
        }
        return new LockRun(fabricName, config, result.operations(), result.localOperations(),
                result.elapsedNanos() / 1e9, LatencySummary.of(merged));
    }
}
