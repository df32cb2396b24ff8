package io.remus.tools.experiment;

import io.remus.core.fabric.Fabric;
import io.remus.ds.bench.structure.Ycsb;
import io.remus.ds.object.bench.KvConfig;
import io.remus.ds.object.bench.KvExperiment;
import io.remus.ds.object.bench.KvResult;
import io.remus.ds.object.bench.KvWay;
import io.remus.tools.stats.LatencyHistograms;
import io.remus.tools.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs {@link KvExperiment} once on a fresh fabric with one fixed-range HdrHistogram per way, workload,
 * worker and operation type ({@link LatencyHistograms}; each recorded only by its own thread), merged per
 * way, workload and type after the run.
 */
public final class KvRunner {
    private KvRunner() {
    }

    /**
     * @param fabrics makes a fresh fabric; closed after the run
     * @param config  what to run
     * @return one run per workload and way, workload-major, in the configured orders
     * @throws InterruptedException when interrupted while the workers run
     */
    public static List<KvRun> run(Supplier<Fabric> fabrics, KvConfig config) throws InterruptedException {
        int workers = config.workers();
        Histogram[][][][] h = new Histogram[KvWay.values().length][Ycsb.values().length][2][workers];
        for (KvWay way : config.ways()) {
            for (Ycsb y : config.workloads()) {
                for (int type = 0; type < 2; type++) {
                    for (int w = 0; w < workers; w++) {
                        h[way.ordinal()][y.ordinal()][type][w] = LatencyHistograms.create();
                    }
                }
            }
        }
        List<KvResult> results;
        try (Fabric fabric = fabrics.get()) {
            results = KvExperiment.run(fabric, config, (way, workload, worker, update) -> {
                Histogram mine = h[way.ordinal()][workload.ordinal()][update ? 1 : 0][worker];
                return nanos -> LatencyHistograms.record(mine, nanos);
            });
        }
        List<KvRun> runs = new ArrayList<>();
        for (KvResult r : results) {
            Histogram[][] byType = h[r.way().ordinal()][r.workload().ordinal()];
            runs.add(new KvRun(r, merged(byType[0]), merged(byType[1])));
        }
        return runs;
    }

    private static LatencySummary merged(Histogram[] histograms) {
        Histogram all = LatencyHistograms.create();
        for (Histogram one : histograms) {
            all.add(one);
        }
        return LatencySummary.of(all);
    }
}
