package io.remus.tools.object;

import io.remus.bench.object.ObjectRun;
import io.remus.bench.object.ObjectBenchmarkResult;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;

import static io.remus.tools.report.JsonReportWriter.printReport;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.rdmaPerOp;
import static io.remus.tools.report.JsonText.str;

/**
 * {@code remus bench object --json}: one JSON object with keys {@code tool}, {@code test}
 * ({@code "object"}), {@code fabric}, {@code notes} and {@code runs}. A run has {@code object impl stall
 * nodes threads_per_node elements value_bytes seconds operations ops_per_sec}, {@code latency_ns} (an
 * object: {@code count p50 p99 p999 max mean} of the live workers), {@code rdma_per_op} (an object keyed by
 * opcode, lower case, and {@code total}), {@code stall_ms}, {@code others_during_stall} and
 * {@code stalled_operations} (0 without a stall).
 */
public final class ObjectJsonFormat {
    private ObjectJsonFormat() {
    }

    /**
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void write(ObjectReport report, PrintWriter out) {
        printReport(out, "object", report.fabric(), report.notes(), report.runs(), ObjectJsonFormat::run);
    }

    private static void run(StringBuilder b, ObjectRun run) {
        ObjectBenchmarkResult r = run.result();
        LatencySummary l = run.latency();
        var c = r.config();
        b.append('{');
        field(b, "object", str(c.object().flagName()));
        field(b, "impl", str(c.impl().flagName()));
        field(b, "stall", Boolean.toString(c.stall()));
        field(b, "nodes", Integer.toString(c.nodes()));
        field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
        field(b, "elements", Integer.toString(c.elements()));
        field(b, "value_bytes", Integer.toString(c.valueBytes()));
        field(b, "seconds", num(r.elapsedNanos() / 1e9));
        field(b, "operations", Long.toString(r.ops()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        b.append("\"latency_ns\":{");
        field(b, "count", Long.toString(l.count()));
        field(b, "p50", Long.toString(l.median()));
        field(b, "p99", Long.toString(l.p99()));
        field(b, "p999", Long.toString(l.p999()));
        field(b, "max", Long.toString(l.max()));
        b.append("\"mean\":").append(num(l.mean())).append("},");
        field(b, "rdma_per_op", rdmaPerOp(r::postedPerOp, r.postedPerOp()));
        field(b, "stall_ms", num(r.stallNanos() / 1e6));
        field(b, "others_during_stall", Long.toString(r.othersDuringStall()));
        b.append("\"stalled_operations\":").append(r.stalledOps()).append('}');
    }
}
