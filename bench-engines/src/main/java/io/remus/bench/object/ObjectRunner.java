package io.remus.bench.object;

import io.remus.bench.engines.SimTime;
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
        return run(fabrics, config, SimTime.HOST);
    }

    /**
     * Runs one object benchmark on a fresh fabric on the clock {@code time}: in virtual time in a virtual-time
     * run of its own, fabric and nodes included ({@link SimTime#call}), so that its counts follow from the
     * model, the code and the seed alone, and its elapsed time, latencies and stall are virtual time.
     *
     * @param fabrics makes a fresh fabric; closed after the run; in virtual time called on the run's first
     *                scheduled thread
     * @param config  what to run
     * @param time    the host's clock or virtual time
     * @return the run
     * @throws InterruptedException when interrupted while the workers run
     */
    public static ObjectRun run(Supplier<Fabric> fabrics, ObjectBenchmarkConfig config, SimTime time)
            throws InterruptedException {
        Histogram[] histograms = new Histogram[config.workers()];
        for (int w = 0; w < histograms.length; w++) {
            histograms[w] = LatencyHistograms.create();
        }
        ObjectBenchmarkResult result = time.call(() -> {
            try (Fabric fabric = fabrics.get()) {
                return ObjectBenchmark.run(fabric, config, w -> {
                    Histogram h = histograms[w];
                    return nanos -> LatencyHistograms.record(h, nanos);
                });
            }
        });
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
        return run(fabrics, configs, warmup, SimTime.HOST);
    }

    /**
     * {@link #run(Supplier, List, Duration)} on the clock {@code time} ({@link #run(Supplier, ObjectBenchmarkConfig,
     * SimTime)}); in virtual time without warm-ups, whose only use is the host's JIT.
     *
     * @param fabrics makes a fresh fabric for each run; closed after it
     * @param configs what to measure, in order
     * @param warmup  how long each warm-up runs; null for none; ignored in virtual time
     * @param time    the host's clock or virtual time
     * @return one run per configuration, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<ObjectRun> run(Supplier<Fabric> fabrics, List<ObjectBenchmarkConfig> configs, Duration warmup,
                                      SimTime time) throws InterruptedException {
        if (warmup != null && !time.isVirtual()) {
            for (ObjectBenchmarkConfig w : ObjectBenchmarkConfig.warmUps(configs, warmup)) {
                run(fabrics, w);
            }
        }
        List<ObjectRun> runs = new ArrayList<>();
        for (ObjectBenchmarkConfig config : configs) {
            runs.add(run(fabrics, config, time));
        }
        return runs;
    }

    /**
     * Runs {@code configs} as {@link #run(Supplier, List, Duration)} does and adds the report's notes: the mix and,
     * where a configuration stalls, the stall before the runs; the warm-up after them.
     *
     * @param fabrics       makes a fresh fabric for each run; closed after it
     * @param configs       what to measure, in order
     * @param warmupSeconds how long each warm-up runs, in seconds (at least 10 ms); 0 for none
     * @param notes         the report's notes, which get the lines above
     * @return one run per configuration, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<ObjectRun> run(Supplier<Fabric> fabrics, List<ObjectBenchmarkConfig> configs, double warmupSeconds,
                                      List<String> notes) throws InterruptedException {
        return run(fabrics, configs, warmupSeconds, notes, SimTime.HOST);
    }

    /**
     * {@link #run(Supplier, List, double, List)} on the clock {@code time}: in virtual time each run is a
     * virtual-time run of its own, without warm-ups (a note says so).
     *
     * @param fabrics       makes a fresh fabric for each run; closed after it
     * @param configs       what to measure, in order
     * @param warmupSeconds how long each warm-up runs, in seconds (at least 10 ms); 0 for none; host clock only
     * @param notes         the report's notes
     * @param time          the host's clock or virtual time
     * @return one run per configuration, in order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<ObjectRun> run(Supplier<Fabric> fabrics, List<ObjectBenchmarkConfig> configs, double warmupSeconds,
                                      List<String> notes, SimTime time) throws InterruptedException {
        notes.add("mix: half updates, half reads (queue and stack: half puts, half takes), chosen at random; "
                + "the object on node 0");
        if (configs.stream().anyMatch(ObjectBenchmarkConfig::stall)) {
            notes.add("stall: worker 0 waits " + configs.getFirst().stallLength().toMillis() + " ms inside the "
                    + "sequential step of its operation (locked: holding the lock, between its READ and WRITE; wait-free "
                    + "queue/stack: after announcing and reading, before its compare-and-swap); counter, max, register "
                    + "and sst have no such step and stop between two operations");
        }
        Duration warmup = warmupSeconds > 0 ? Duration.ofNanos(Math.max(10_000_000L, Math.round(warmupSeconds * 1e9))) : null;
        List<ObjectRun> runs = run(fabrics, configs, warmup, time);
        if (warmup != null && time.isVirtual()) {
            notes.add("no warm-up: virtual-time figures do not depend on the host's JIT");
        } else if (warmup != null) {
            notes.add("warm-up: each object and implementation ran " + warmupSeconds + " s unreported before the measured runs");
        }
        return runs;
    }
}
