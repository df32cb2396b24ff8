package io.remus.tools.lock;

import io.remus.bench.lock.LockRun;
import io.remus.bench.stats.LatencySummary;

import static io.remus.tools.report.JsonReportWriter.reportObject;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.str;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * {@code remus bench lock --json}: one JSON object with keys {@code tool}, {@code test}
 * ({@code "lock"}), {@code fabric}, {@code unit} ({@code "usec"}), {@code notes}, {@code runs} and
 * {@code speedups}. A run has {@code lock nodes threads_per_node p_local keys local_budget
 * remote_budget seconds operations local_operations ops_per_sec} and {@code latency} with
 * {@code count min median mean stddev p90 p99 p99_9 p99_99 max}. A speedup has {@code p_local keys
 * vs_spin vs_mcs}: ALock's throughput over that lock's at the point, or null when not run.
 */
public final class LockJsonFormat {
    private LockJsonFormat() {
    }

    /**
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void write(LockReport report, PrintWriter out) {
        out.println(reportObject("lock", report.fabric(), b -> field(b, "unit", str("usec")), report.notes(), report.runs(),
                LockJsonFormat::run, b -> speedups(b, report)));
        out.flush();
    }

    private static void speedups(StringBuilder b, LockReport report) {
        b.append(",\"speedups\":[");
        List<GridPoint> points = GridPoint.of(report);
        for (int i = 0; i < points.size(); i++) {
            GridPoint p = points.get(i);
            b.append(i == 0 ? "{" : ",{");
            field(b, "p_local", num(p.pLocal()));
            field(b, "keys", Integer.toString(p.keys()));
            field(b, "vs_spin", ratio(report.alockSpeedup("spin", p.pLocal(), p.keys())));
            b.append("\"vs_mcs\":").append(ratio(report.alockSpeedup("mcs", p.pLocal(), p.keys()))).append('}');
        }
        b.append(']');
    }

    private static void run(StringBuilder b, LockRun r) {
        var c = r.config();
        LatencySummary l = r.latency();
        b.append('{');
        field(b, "lock", str(c.kind().cliName()));
        field(b, "nodes", Integer.toString(c.nodes()));
        field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
        field(b, "p_local", num(c.pLocal()));
        field(b, "keys", Integer.toString(c.keys()));
        field(b, "local_budget", Long.toString(c.localBudget()));
        field(b, "remote_budget", Long.toString(c.remoteBudget()));
        field(b, "seconds", num(r.seconds()));
        field(b, "operations", Long.toString(r.operations()));
        field(b, "local_operations", Long.toString(r.localOperations()));
        field(b, "ops_per_sec", num(r.throughput()));
        b.append("\"latency\":{");
        field(b, "count", Long.toString(l.count()));
        field(b, "min", us(l.min()));
        field(b, "median", us(l.median()));
        field(b, "mean", us(l.mean()));
        field(b, "stddev", us(l.stdDev()));
        field(b, "p90", us(l.p90()));
        field(b, "p99", us(l.p99()));
        field(b, "p99_9", us(l.p999()));
        field(b, "p99_99", us(l.p9999()));
        b.append("\"max\":").append(us(l.max())).append("}}");
    }

    private static String ratio(OptionalDouble r) {
        return r.isPresent() ? num(r.getAsDouble()) : "null";
    }

    private static String us(double nanos) {
        return num(LatencySummary.usec(nanos));
    }

}
