package io.remus.tools.object;

import io.remus.bench.object.ObjectRun;
import io.remus.bench.object.ObjectBenchmarkResult;
import io.remus.core.fabric.Opcode;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The default output of {@code remus bench object}: one row per run with operations, throughput, the
 * live workers' latency percentiles, RDMA operations per operation by kind, and, for a stalled run, how
 * long the worker stood still and how many operations the others completed meanwhile.
 */
public final class ObjectHumanFormat {
    private ObjectHumanFormat() {
    }

    /**
     * @param report the runs
     * @param out    where they go
     */
    public static void write(ObjectReport report, PrintWriter out) {
        out.println("remus bench object on " + report.fabric());
        for (String note : report.notes()) {
            out.println("note: " + note);
        }
        out.printf("%-24s %5s %7s %9s %10s %9s %9s %9s %10s %6s %6s %6s %6s %6s %8s %10s%n", "object/impl", "nodes",
                "threads", "ops", "ops/s", "p50 us", "p99 us", "p99.9 us", "max us", "READ", "WRITE", "CAS", "FAA",
                "total", "stall ms", "others");
        for (ObjectRun run : report.runs()) {
            ObjectBenchmarkResult r = run.result();
            LatencySummary l = run.latency();
            var c = r.config();
            out.printf("%-24s %5d %7d %9d %10.0f %9.1f %9.1f %9.1f %10.1f %6.2f %6.2f %6.2f %6.2f %6.2f %8s %10s%n",
                    run.label(), c.nodes(), c.threadsPerNode(), r.ops(), r.opsPerSecond(), us(l.median()), us(l.p99()),
                    us(l.p999()), us(l.max()), r.postedPerOp(Opcode.READ), r.postedPerOp(Opcode.WRITE),
                    r.postedPerOp(Opcode.COMPARE_AND_SWAP), r.postedPerOp(Opcode.FETCH_AND_ADD), r.postedPerOp(),
                    c.stall() ? String.format(Locale.ROOT, "%.0f", r.stallNanos() / 1e6) : "-",
                    c.stall() ? Long.toString(r.othersDuringStall()) : "-");
        }
        out.println("(threads per node; latency of the live workers, the stalled one's left out; READ..total: posted "
                + "RDMA operations per operation, the lock's included; stall ms: how long worker 0 stood still; "
                + "others: operations the other workers completed meanwhile)");
        out.flush();
    }

    private static double us(long nanos) {
        return LatencySummary.usec(nanos);
    }
}
