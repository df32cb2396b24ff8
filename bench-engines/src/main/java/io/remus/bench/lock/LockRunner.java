package io.remus.bench.lock;

import io.remus.bench.engines.SimTime;
import io.remus.core.fabric.Fabric;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs one lock benchmark point on a fresh fabric with one fixed-range HdrHistogram per worker
 * ({@link LatencyHistograms}; each recorded only by its own thread), merged after the run.
 */
public final class LockRunner {
    private LockRunner() {
    }

    /** Receives each measured point as its run ends, e.g. to append it to a file before the next runs. */
    @FunctionalInterface
    public interface RunSink {
        /**
         * @param run the measured point
         * @throws IOException when it cannot be written
         */
        void accept(LockRun run) throws IOException;
    }

    /**
     * Runs every point in order, each on a fresh fabric, after one unreported warm-up run of each lock kind
     * ({@link LockBenchmarkConfig#warmUps}).
     *
     * @param fabricName    the fabric's name for the report
     * @param fabrics       makes a fresh fabric per run; each closed after its run
     * @param configs       the points, in run order
     * @param warmupSeconds each warm-up run's length, or 0 for none
     * @param notes         the report's notes, which get a line on the warm-up
     * @param each          receives each measured point as its run ends
     * @return the measured points, in run order
     * @throws InterruptedException when interrupted while the workers run
     * @throws IOException          when {@code each} cannot write a point
     */
    public static List<LockRun> runAll(String fabricName, Supplier<Fabric> fabrics, List<LockBenchmarkConfig> configs,
                                       double warmupSeconds, List<String> notes, RunSink each)
            throws InterruptedException, IOException {
        return runAll(fabricName, fabrics, configs, warmupSeconds, notes, each, SimTime.HOST);
    }

    /**
     * Runs every point in order, each on a fresh fabric, on the clock {@code time}. On the host's clock one
     * unreported warm-up run of each lock kind comes first ({@link LockBenchmarkConfig#warmUps}); in virtual time
     * none does (the JIT does not change virtual-time figures), and each point runs in a virtual-time run of its
     * own, fabric and nodes included, so that each point's counts follow from its seed alone.
     *
     * @param fabricName    the fabric's name for the report
     * @param fabrics       makes a fresh fabric per run; each closed after its run; in virtual time called on
     *                      the run's first scheduled thread
     * @param configs       the points, in run order
     * @param warmupSeconds each warm-up run's length, or 0 for none (host clock only)
     * @param notes         the report's notes, which get a line on the warm-up
     * @param each          receives each measured point as its run ends
     * @param time          the host's clock or virtual time
     * @return the measured points, in run order
     * @throws InterruptedException when interrupted while the workers run
     * @throws IOException          when {@code each} cannot write a point
     */
    public static List<LockRun> runAll(String fabricName, Supplier<Fabric> fabrics, List<LockBenchmarkConfig> configs,
                                       double warmupSeconds, List<String> notes, RunSink each, SimTime time)
            throws InterruptedException, IOException {
        if (time.isVirtual()) {
            if (warmupSeconds > 0) {
                notes.add("no warm-up: virtual-time figures do not depend on the host's JIT");
            }
        } else if (warmupSeconds > 0) {
            for (LockBenchmarkConfig w : LockBenchmarkConfig.warmUps(configs, Duration.ofNanos(Math.round(warmupSeconds * 1e9)))) {
                run(fabricName, fabrics, w);
            }
            notes.add(warmUpNote(warmupSeconds));
        }
        List<LockRun> runs = new ArrayList<>();
        for (LockBenchmarkConfig config : configs) {
            LockRun run = run(fabricName, fabrics, config, time);
            runs.add(run);
            each.accept(run);
        }
        return runs;
    }

    /** @param warmupSeconds each warm-up run's length @return the report's note on the warm-up */
    static String warmUpNote(double warmupSeconds) {
        return "warm-up: each lock kind ran " + warmupSeconds + " s unreported before the measured runs";
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
        return run(fabricName, fabrics, config, SimTime.HOST);
    }

    /**
     * @param fabricName the fabric's name for the report
     * @param fabrics    makes a fresh fabric; closed after the run; in virtual time called on the run's first
     *                   scheduled thread
     * @param config     what to run
     * @param time       the host's clock or virtual time: the run's duration, seconds and latencies are on it
     * @return the measured point
     * @throws InterruptedException when interrupted while the workers run
     */
    public static LockRun run(String fabricName, Supplier<Fabric> fabrics, LockBenchmarkConfig config, SimTime time)
            throws InterruptedException {
        int workers = config.nodes() * config.threadsPerNode();
        Histogram[] histograms = new Histogram[workers];
        for (int w = 0; w < workers; w++) {
            histograms[w] = LatencyHistograms.create();
        }
        LockBenchmarkResult result = time.call(() -> {
            try (Fabric fabric = fabrics.get()) {
                return LockBenchmark.run(fabric, config, w -> {
                    Histogram h = histograms[w];
                    return nanos -> LatencyHistograms.record(h, nanos);
                });
            }
        });
        Histogram merged = LatencyHistograms.create();
        for (Histogram h : histograms) {
            merged.add(h);
        }
        return new LockRun(fabricName, config, result.operations(), result.localOperations(),
                result.elapsedNanos() / 1e9, LatencySummary.of(merged));
    }
}
