package io.remus.tools.ds;

import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;

/**
 * The output of a {@code remus bench ds} sweep (a {@code --structure} or {@code --threads} list): the
 * settings every run shares, then one row per run, in run order: its structure (with the lazy list's
 * lock), threads per node, throughput, the p50 and p99 latency of all its operations, and the compute
 * threads' RDMA operations (READs, WRITEs, compare-and-swaps and fetch-and-adds together) and round trips
 * per operation.
 */
public final class DsSweepFormat {
    private DsSweepFormat() {
    }

    /**
     * @param report the runs, which differ only in structure and threads per node
     * @param out    where they go
     */
    public static void write(DsReport report, PrintWriter out) {
        out.println("remus bench ds on " + report.fabric());
        for (String note : report.notes()) {
            out.println("note: " + note);
        }
        DsBenchmarkConfig c = report.runs().getFirst().result().config();
        out.printf("%d nodes%s, keys %d..%d%s, %s, %s%n", c.nodes(), c.homeWorkers() ? "" : " (no workers on node 0)",
                c.keyLb(), c.keyUb(), c.effectiveTheta() > 0 ? " zipf " + c.effectiveTheta() : " uniform",
                c.ycsb() != null ? "YCSB " + c.ycsb() : "insert " + c.insertPercent() + "% remove "
                        + c.removePercent() + "%", c.duration() != null ? c.duration().toMillis() / 1000.0 + " s per run"
                        : c.opsPerThread() + " ops per thread");
        out.printf("  %-20s %7s %12s %9s %9s %9s %7s%n", "structure", "threads", "ops/s", "p50 us", "p99 us",
                "RDMA/op", "RT/op");
        for (DsRun run : report.runs()) {
            DsBenchmarkResult r = run.result();
            LatencySummary all = run.all();
            out.printf("  %-20s %7d %12.0f %9.1f %9.1f %9.2f %7.2f%n", r.config().label(),
                    r.config().threadsPerNode(), r.opsPerSecond(), LatencySummary.usec(all.median()),
                    LatencySummary.usec(all.p99()), rdmaPerOp(r), r.perOp(Cost.ROUND_TRIPS));
        }
        out.println("(threads: workers per node that runs workers; p50, p99: latency of every operation of every "
                + "worker; RDMA/op: the compute threads' READs, WRITEs, compare-and-swaps and fetch-and-adds per "
                + "operation; RT/op: their round trips per operation; work on a worker's own node that takes the CPU "
                + "path is not counted)");
        out.flush();
    }

    /**
     * @param r a run
     * @return the compute threads' RDMA operations of every kind per operation
     */
    public static double rdmaPerOp(DsBenchmarkResult r) {
        return r.perOp(Cost.READS) + r.perOp(Cost.WRITES) + r.perOp(Cost.COMPARE_AND_SWAPS)
                + r.perOp(Cost.FETCH_AND_ADDS);
    }
}
