package io.remus.tools.experiment;

import io.remus.core.fabric.Fabric;
import io.remus.ds.object.bench.SharingConfig;
import io.remus.ds.object.bench.SharingExperiment;
import io.remus.ds.object.bench.SharingResult;
import io.remus.ds.object.bench.SharingWay;
import io.remus.tools.stats.LatencyHistograms;
import io.remus.tools.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs {@link SharingExperiment} once on a fresh fabric with one fixed-range HdrHistogram per way and
 * worker ({@link LatencyHistograms}; each recorded only by its own thread), merged per way after the run.
 */
public final class SharingRunner {
    private SharingRunner() {
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run
     * @param config  what to run
     * @return one run per way, in the configured order
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<SharingRun> run(Supplier<Fabric> fabrics, SharingConfig config) throws InterruptedException {
        int ways = SharingWay.values().length;
        Histogram[][] histograms = new Histogram[ways][config.workers()];
        for (SharingWay way : config.ways()) {
            for (int w = 0; w < config.workers(); w++) {
                histograms[way.ordinal()][w] = LatencyHistograms.create();
            }
        }
        List<SharingResult> results;
        try (Fabric fabric = fabrics.get()) {
            results = SharingExperiment.run(fabric, config, (way, worker) -> {
                Histogram h = histograms[way.ordinal()][worker];
                return nanos -> LatencyHistograms.record(h, nanos);
            });
        }
        List<SharingRun> runs = new ArrayList<>();
        for (SharingResult r : results) {
            Histogram merged = LatencyHistograms.create();
            for (Histogram h : histograms[r.way().ordinal()]) {
                merged.add(h);
            }
            runs.add(new SharingRun(config.threadsPerNode(), r, LatencySummary.of(merged)));
        }
        return runs;
    }
}
