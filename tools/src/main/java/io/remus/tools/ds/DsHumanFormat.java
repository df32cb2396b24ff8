package io.remus.tools.ds;

import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.structure.OpType;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;

/**
 * The default output of {@code remus bench ds}: per run, its configuration and throughput, then one row
 * per operation type (and one for all of them) with counts, outcomes, latency percentiles and the
 * compute threads' RDMA counts per operation.
 */
public final class DsHumanFormat {
    private DsHumanFormat() {
    }

    /**
     * @param report the runs
     * @param out    where they go
     */
    public static void write(DsReport report, PrintWriter out) {
        out.println("remus bench ds on " + report.fabric());
        for (String note : report.notes()) {
            out.println("note: " + note);
        }
        for (DsRun run : report.runs()) {
            DsBenchmarkResult r = run.result();
            DsBenchmarkConfig c = r.config();
            out.printf("%s: %d nodes x %d threads%s, keys %d..%d%s, %s; prefilled %d; %d ops in %.3f s: %.0f ops/s%n",
                    c.label(), c.nodes(), c.threadsPerNode(), c.homeWorkers() ? "" : " (none on node 0)", c.keyLb(),
                    c.keyUb(), c.effectiveTheta() > 0 ? " zipf " + c.effectiveTheta() : " uniform",
                    c.ycsb() != null ? "YCSB " + c.ycsb() : "insert " + c.insertPercent() + "% remove "
                            + c.removePercent() + "%", r.prefilled(), r.ops(), r.elapsedNanos() / 1e9, r.opsPerSecond());
            out.printf("  %-7s %9s %9s %9s %9s %9s %9s %10s %7s %7s %7s %8s %6s %6s %6s %6s %8s %8s%n", "op", "ops",
                    "true", "false", "p50 us", "p99 us", "p99.9 us", "max us", "RT", "(alloc)", "(recl)", "(keygen)", "READ",
                    "WRITE", "CAS", "FAA", "B read", "B write");
            for (OpType op : OpType.values()) {
                if (r.ops(op) > 0) {
                    row(out, op.label(), r.ops(op), r.succeeded(op), r.failed(op), run.latency().get(op),
                            cost -> r.perOp(op, cost));
                }
            }
            long ok = 0;
            for (OpType op : OpType.values()) {
                ok += r.succeeded(op);
            }
            row(out, "all", r.ops(), ok, r.ops() - ok, run.all(), r::perOp);
        }
        out.println("(latency per operation of every worker; RT..B write: the compute threads' counts per operation: "
                + "round trips, of them the allocator's, the epoch reclaimer's and YCSB D's key generator's, RDMA READs, WRITEs, compare-and-swaps, fetch-and-adds, bytes "
                + "read and written; work on a worker's own node that takes the CPU path is not counted)");
        out.flush();
    }

    private static void row(PrintWriter out, String name, long ops, long ok, long failed, LatencySummary l,
                            java.util.function.ToDoubleFunction<Cost> perOp) {
        LatencySummary s = l == null ? new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0) : l;
        out.printf("  %-7s %9d %9d %9d %9.1f %9.1f %9.1f %10.1f %7.2f %7.2f %7.2f %8.2f %6.2f %6.2f %6.2f %6.2f %8.1f %8.1f%n",
                name, ops, ok, failed, us(s.median()), us(s.p99()), us(s.p999()), us(s.max()),
                perOp.applyAsDouble(Cost.ROUND_TRIPS), perOp.applyAsDouble(Cost.ALLOCATOR_ROUND_TRIPS),
                perOp.applyAsDouble(Cost.RECLAIMER_ROUND_TRIPS), perOp.applyAsDouble(Cost.KEY_GENERATOR_ROUND_TRIPS),
                perOp.applyAsDouble(Cost.READS), perOp.applyAsDouble(Cost.WRITES),
                perOp.applyAsDouble(Cost.COMPARE_AND_SWAPS), perOp.applyAsDouble(Cost.FETCH_AND_ADDS),
                perOp.applyAsDouble(Cost.BYTES_READ), perOp.applyAsDouble(Cost.BYTES_WRITTEN));
    }

    private static double us(long nanos) {
        return LatencySummary.usec(nanos);
    }
}
