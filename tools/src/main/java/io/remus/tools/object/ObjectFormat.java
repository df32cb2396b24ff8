package io.remus.tools.object;

import io.remus.bench.object.ObjectReport;
import io.remus.bench.object.ObjectRun;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench object}, from one declaration of a run's columns.
 * <p>
 * The default output: one row per run with operations, throughput, the live workers' latency percentiles,
 * RDMA operations per operation by kind, and, for a stalled run, how long the worker stood still and how many
 * operations the others completed meanwhile.
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "object"}), {@code fabric},
 * {@code notes} and {@code runs}. A run has {@code object impl stall nodes threads_per_node elements
 * value_bytes seconds operations ops_per_sec}, {@code latency_ns} (an object: {@code count p50 p99 p999 max
 * mean} of the live workers), {@code rdma_per_op} (an object keyed by opcode, lower case, and {@code total}),
 * {@code stall_ms}, {@code others_during_stall} and {@code stalled_operations} (0 without a stall).
 * <p>
 * A report timed in virtual time ({@link ObjectReport#time()}) has {@code time} after {@code fabric}
 * ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}): its seconds, throughputs, latencies and
 * stalls are virtual time, and the default output says so above its table.
 */
public final class ObjectFormat {
    private static final ReportTable<ObjectRun> RUN = new ReportTable<ObjectRun>()
            .column("object/impl", "%-24s", ObjectRun::label)
            .field("object", r -> r.result().config().object().flagName())
            .field("impl", r -> r.result().config().impl().flagName())
            .field("stall", r -> r.result().config().stall())
            .field("nodes", r -> r.result().config().nodes()).shown("nodes", "%5d")
            .field("threads_per_node", r -> r.result().config().threadsPerNode()).shown("threads", "%7d")
            .field("elements", r -> r.result().config().elements())
            .field("value_bytes", r -> r.result().config().valueBytes())
            .field("seconds", r -> r.result().elapsedNanos() / 1e9)
            .field("operations", r -> r.result().ops()).shown("ops", "%9d")
            .field("ops_per_sec", r -> r.result().opsPerSecond()).shown("ops/s", "%10.0f")
            .field("latency_ns.count", r -> r.latency().count())
            .field("latency_ns.p50", r -> r.latency().median()).shown("p50 us", "%9.1f", r -> us(r.latency().median()))
            .field("latency_ns.p99", r -> r.latency().p99()).shown("p99 us", "%9.1f", r -> us(r.latency().p99()))
            .field("latency_ns.p999", r -> r.latency().p999()).shown("p99.9 us", "%9.1f", r -> us(r.latency().p999()))
            .field("latency_ns.max", r -> r.latency().max()).shown("max us", "%10.1f", r -> us(r.latency().max()))
            .field("latency_ns.mean", r -> r.latency().mean())
            .rdmaPerOp(r -> r.result()::postedPerOp, r -> r.result().postedPerOp()).shown("total", "%6.2f")
            .field("stall_ms", r -> r.result().stallNanos() / 1e6).shown("stall ms", "%8s", r -> r.result().config()
                    .stall() ? String.format(Locale.ROOT, "%.0f", r.result().stallNanos() / 1e6) : "-")
            .field("others_during_stall", r -> r.result().othersDuringStall()).shown("others", "%10s",
                    r -> r.result().config().stall() ? Long.toString(r.result().othersDuringStall()) : "-")
            .field("stalled_operations", r -> r.result().stalledOps());

    private ObjectFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param report the runs
     * @param out    where they go
     */
    public static void writeHuman(ObjectReport report, PrintWriter out) {
        ReportTable.title(out, "object", report.fabric(), report.notes());
        if (report.time() != null) {
            out.println("every figure below is " + report.time());
        }
        RUN.print(out, "", report.runs());
        String virtual = report.time() == null ? "" : " in virtual time";
        out.println("(threads per node; " + (report.time() == null ? "" : "ops/s: operations per second of virtual "
                + "time; ") + "latency" + virtual
                + " of the live workers, the stalled one's left out; READ..total: posted RDMA operations per "
                + "operation, the lock's included; stall ms: how long worker 0 stood still" + virtual + "; others: "
                + "operations the other workers completed meanwhile)");
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void writeJson(ObjectReport report, PrintWriter out) {
        out.println(reportObject("object", report.fabric(), b -> {
            if (report.time() != null) {
                field(b, "time", str(report.time()));
            }
        }, report.notes(), report.runs(), (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    private static double us(long nanos) {
        return LatencySummary.usec(nanos);
    }
}
