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

    /** A lock with at least this many workers, and at least half of them, inside its pairs at the end gets a note. */
    static final int CONVOY_MIN_WORKERS = 8;

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
     * @param notes         the report's notes, which get a line on the warm-up, and one per point that ended with
     *                      a convoy ({@link #convoyNote})
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
            Measured m = measure(fabricName, fabrics, config, time);
            runs.add(m.run());
            String convoy = convoyNote(config, m.result());
            if (convoy != null) {
                notes.add(convoy);
            }
            each.accept(m.run());
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
        return measure(fabricName, fabrics, config, time).run();
    }

    /**
     * The note on a point whose run ended with a convoy: at least {@value #CONVOY_MIN_WORKERS} workers, and at least
     * half of all, inside lock/unlock pairs of one key. Such a lock admits its waiters slowly (a compare-and-swap
     * loop on one word admits about one of m looping threads per atomic time), a worker that leaves it soon picks it
     * again, and the run's figures then depend on when the convoy formed, so on the run's length.
     *
     * @param config what ran
     * @param result what it measured
     * @return the note, naming the lock kind, the point, the key and the count; or null when there was no convoy
     */
    static String convoyNote(LockBenchmarkConfig config, LockBenchmarkResult result) {
        int workers = config.nodes() * config.threadsPerNode();
        int busiest = result.busiestLockWorkers();
        if (busiest < CONVOY_MIN_WORKERS || 2 * busiest < workers) {
            return null;
        }
        return "convoy: " + config.kind().cliName() + ", " + config.nodes()
                + " nodes x " + config.threadsPerNode() + " threads, p_local " + config.pLocal() + ", " + config.keys()
                + " keys: when the run ended, " + busiest + " of its " + workers
                + " workers were inside lock/unlock pairs of key " + result.busiestLockKey()
                + "; its figures depend on the run's length";
    }

    /** A measured point and what the benchmark returned for it. */
    private record Measured(LockRun run, LockBenchmarkResult result) {
    }

    private static Measured measure(String fabricName, Supplier<Fabric> fabrics, LockBenchmarkConfig config,
                                    SimTime time) throws InterruptedException {
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
        return new Measured(new LockRun(fabricName, config, result.operations(), result.localOperations(),
                result.elapsedNanos() / 1e9, LatencySummary.of(merged)), result);
    }
}
