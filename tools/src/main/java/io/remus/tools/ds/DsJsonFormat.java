package io.remus.tools.ds;

import io.remus.bench.structure.DsRun;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.structure.OpType;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;
import java.util.function.ToDoubleFunction;

import static io.remus.tools.report.JsonReportWriter.printReport;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.str;

/**
 * {@code remus bench ds --json FILE}: one JSON object with keys {@code tool}, {@code test} ({@code "ds"}),
 * {@code fabric}, {@code notes} and {@code runs}. A run has {@code structure lock ycsb} (null without)
 * {@code nodes threads_per_node home_workers num_ops} (per thread; null in a duration run) {@code prefill
 * insert remove key_lb key_ub zipf value_size seconds prefilled operations ops_per_sec}, {@code all} and
 * {@code ops}: {@code all} an object of every operation's {@code count true false latency_ns per_op}, and
 * {@code ops} one such object per operation type the run issued, keyed by type ({@code lookup insert
 * remove update rmw}). {@code latency_ns} holds {@code p50 p90 p99 p999 max mean}; {@code per_op} the
 * compute threads' counts per operation ({@code round_trips reads writes compare_and_swaps
 * fetch_and_adds bytes_read bytes_written allocator_round_trips reclaimer_round_trips
 * key_generator_round_trips}; the last three are parts of {@code round_trips}).
 */
public final class DsJsonFormat {
    private DsJsonFormat() {
    }

    /**
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void write(DsReport report, PrintWriter out) {
        printReport(out, "ds", report.fabric(), report.notes(), report.runs(), DsJsonFormat::run);
    }

    private static void run(StringBuilder b, DsRun run) {
        DsBenchmarkResult r = run.result();
        DsBenchmarkConfig c = r.config();
        b.append('{');
        field(b, "structure", str(c.structure().flagName()));
        field(b, "lock", str(c.lock().cliName()));
        field(b, "ycsb", c.ycsb() == null ? "null" : str(c.ycsb().name()));
        field(b, "nodes", Integer.toString(c.nodes()));
        field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
        field(b, "home_workers", Boolean.toString(c.homeWorkers()));
        field(b, "num_ops", c.duration() == null ? Long.toString(c.opsPerThread()) : "null");
        field(b, "prefill", Integer.toString(c.prefillPercent()));
        field(b, "insert", Integer.toString(c.insertPercent()));
        field(b, "remove", Integer.toString(c.removePercent()));
        field(b, "key_lb", Long.toString(c.keyLb()));
        field(b, "key_ub", Long.toString(c.keyUb()));
        field(b, "zipf", num(c.effectiveTheta()));
        field(b, "value_size", Integer.toString(c.valueBytes()));
        field(b, "seconds", num(r.elapsedNanos() / 1e9));
        field(b, "prefilled", Long.toString(r.prefilled()));
        field(b, "operations", Long.toString(r.ops()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        long ok = 0;
        for (OpType op : OpType.values()) {
            ok += r.succeeded(op);
        }
        field(b, "all", kind(r.ops(), ok, run.all(), r::perOp));
        b.append("\"ops\":{");
        boolean first = true;
        for (OpType op : OpType.values()) {
            if (r.ops(op) > 0) {
                b.append(first ? "" : ",").append(str(op.label())).append(':')
                        .append(kind(r.ops(op), r.succeeded(op), run.latency().get(op), cost -> r.perOp(op, cost)));
                first = false;
            }
        }
        b.append("}}");
    }

    private static String kind(long ops, long ok, LatencySummary l, ToDoubleFunction<Cost> perOp) {
        StringBuilder b = new StringBuilder("{");
        field(b, "count", Long.toString(ops));
        field(b, "true", Long.toString(ok));
        field(b, "false", Long.toString(ops - ok));
        LatencySummary s = l == null ? new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0) : l;
        b.append("\"latency_ns\":{");
        field(b, "p50", Long.toString(s.median()));
        field(b, "p90", Long.toString(s.p90()));
        field(b, "p99", Long.toString(s.p99()));
        field(b, "p999", Long.toString(s.p999()));
        field(b, "max", Long.toString(s.max()));
        b.append("\"mean\":").append(num(s.mean())).append("},");
        b.append("\"per_op\":{");
        Cost[] all = Cost.values();
        for (int i = 0; i < all.length; i++) {
            b.append(i == 0 ? "" : ",").append(str(all[i].label())).append(':').append(num(perOp.applyAsDouble(all[i])));
        }
        return b.append("}}").toString();
    }
}
