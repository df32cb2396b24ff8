package io.remus.tools.reclaim;

import io.remus.bench.reclaim.ReclaimBenchmarkResult;

import java.io.PrintWriter;

import static io.remus.tools.report.JsonReportWriter.printReport;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.rdmaPerOp;
import static io.remus.tools.report.JsonText.str;

/**
 * {@code remus bench reclaim --json}: one JSON object with keys {@code tool}, {@code test}
 * ({@code "reclaim"}), {@code fabric}, {@code notes} and {@code runs}. A run has {@code reclaimer
 * stall nodes threads_per_node slots read_percent lease_ms limit_bytes barrier_every seconds
 * operations ops_per_sec reads replaces restarts violations first_violation} (what the first read that found freed memory saw, or null) {@code retired_bytes peak_unreclaimed_bytes
 * final_unreclaimed_bytes unreclaimed_bound} (null when the reclaimer has none) {@code limit_timeouts},
 * {@code rdma_per_op} (an object keyed by opcode, lower case, and {@code total}) and {@code samples},
 * an array of {@code [millis, unreclaimed_bytes, operations]}.
 */
public final class ReclaimJsonFormat {
    private ReclaimJsonFormat() {
    }

    /**
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void write(ReclaimReport report, PrintWriter out) {
        printReport(out, "reclaim", report.fabric(), report.notes(), report.runs(), ReclaimJsonFormat::run);
    }

    private static void run(StringBuilder b, ReclaimBenchmarkResult r) {
        var c = r.config();
        b.append('{');
        field(b, "reclaimer", str(c.reclaimer().flagName()));
        field(b, "stall", Boolean.toString(c.stall()));
        field(b, "nodes", Integer.toString(c.nodes()));
        field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
        field(b, "slots", Integer.toString(c.slots()));
        field(b, "read_percent", Integer.toString(c.readPercent()));
        field(b, "lease_ms", Long.toString(c.epoch().lease().toMillis()));
        field(b, "limit_bytes", Long.toString(c.epoch().limitBytes()));
        field(b, "barrier_every", Integer.toString(c.barrierEvery()));
        field(b, "seconds", num(r.elapsedNanos() / 1e9));
        field(b, "operations", Long.toString(r.ops()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        field(b, "reads", Long.toString(r.reads()));
        field(b, "replaces", Long.toString(r.replaces()));
        field(b, "restarts", Long.toString(r.restarts()));
        field(b, "violations", Long.toString(r.violations()));
        field(b, "first_violation", r.firstViolation() == null ? "null" : str(r.firstViolation()));
        field(b, "retired_bytes", Long.toString(r.retiredBytes()));
        field(b, "peak_unreclaimed_bytes", Long.toString(r.peakUnreclaimedBytes()));
        field(b, "final_unreclaimed_bytes", Long.toString(r.finalUnreclaimedBytes()));
        field(b, "unreclaimed_bound", c.unreclaimedBound() < 0 ? "null" : Long.toString(c.unreclaimedBound()));
        field(b, "limit_timeouts", Long.toString(r.limitTimeouts()));
        field(b, "rdma_per_op", rdmaPerOp(r::postedPerOp, r.postedPerOp()));
        b.append("\"samples\":[");
        for (int i = 0; i < r.samples().size(); i++) {
            var s = r.samples().get(i);
            b.append(i == 0 ? "[" : ",[").append(s.millis()).append(',').append(s.unreclaimedBytes()).append(',')
                    .append(s.ops()).append(']');
        }
        b.append("]}");
    }
}
