package io.remus.tools.lock;

import io.remus.bench.lock.LockReport;
import io.remus.bench.lock.LockRun;
import io.remus.bench.lock.Speedup;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.List;
import java.util.OptionalDouble;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench lock}, from one declaration of a run's columns ({@link #RUN}).
 * <p>
 * The default output: one row per run, then ALock's throughput over the spin and MCS locks at each grid
 * point where the same invocation ran them.
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "lock"}), {@code fabric},
 * {@code unit} ({@code "usec"}), {@code notes}, {@code runs} and {@code speedups}. A run has {@code lock nodes
 * threads_per_node p_local keys local_budget remote_budget seconds operations local_operations ops_per_sec}
 * and {@code latency} with {@code count min median mean stddev p90 p99 p99_9 p99_99 max}. A speedup has
 * {@code p_local keys vs_spin vs_mcs}: ALock's throughput over that lock's at the point, or null when not run.
 * A report timed in virtual time ({@link LockReport#time()}) has {@code time} after {@code unit}
 * ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}): its seconds, throughputs and latencies are
 * virtual time, and the default output says so above its table.
 * <p>
 * The CSV rows of {@link LockCsv}.
 */
public final class LockFormat {
    /** A run's columns: its JSON object, CSV row and human row. */
    public static final ReportTable<LockRun> RUN = new ReportTable<LockRun>()
            .csvOnly("fabric", LockRun::fabric)
            .field("lock", r -> r.config().kind().cliName()).csv("lock").shown("lock", "%-18s")
            .field("nodes", r -> r.config().nodes()).csv("nodes").shown("nodes", "%5d")
            .field("threads_per_node", r -> r.config().threadsPerNode()).csv("threads_per_node")
            .shown("threads", "%7d")
            .field("p_local", r -> r.config().pLocal()).csv("p_local").shown("p_local", "%6.3f")
            .field("keys", r -> r.config().keys()).csv("keys").shown("keys", "%7d")
            .field("local_budget", r -> r.config().localBudget()).csv("local_budget")
            .field("remote_budget", r -> r.config().remoteBudget()).csv("remote_budget")
            .field("seconds", LockRun::seconds).csv("seconds")
            .field("operations", LockRun::operations).csv("operations").shown("pairs", "%12d")
            .field("local_operations", LockRun::localOperations).csv("local_operations")
            .field("ops_per_sec", LockRun::throughput).csv("ops_per_sec").shown("pairs/s", "%12.0f")
            .column("local%", "%7.1f", r -> 100 * r.localFraction())
            .field("latency.count", r -> r.latency().count())
            .field("latency.min", r -> us(r.latency().min())).csv("min_us")
            .field("latency.median", r -> us(r.latency().median())).csv("median_us").shown("median", "%9.3f")
            .field("latency.mean", r -> us(r.latency().mean())).csv("mean_us")
            .field("latency.stddev", r -> us(r.latency().stdDev()))
            .field("latency.p90", r -> us(r.latency().p90())).csv("p90_us").shown("p90", "%9.3f")
            .field("latency.p99", r -> us(r.latency().p99())).csv("p99_us").shown("p99", "%9.3f")
            .field("latency.p99_9", r -> us(r.latency().p999())).csv("p99_9_us").shown("p99.9", "%9.3f")
            .field("latency.p99_99", r -> us(r.latency().p9999()))
            .field("latency.max", r -> us(r.latency().max())).csv("max_us").shown("max", "%10.3f");

    private static final ReportTable<Speedup> SPEEDUP = new ReportTable<Speedup>()
            .field("p_local", s -> s.point().pLocal()).shown("p_local", "%6.3f")
            .field("keys", s -> s.point().keys()).shown("keys", "%7d")
            .field("vs_spin", s -> ratio(s.spin())).shown("vs spin", "%10s", s -> times(s.spin()))
            .field("vs_mcs", s -> ratio(s.mcs())).shown("vs mcs", "%10s", s -> times(s.mcs()));

    private LockFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param report the runs
     * @param out    where they go
     */
    public static void writeHuman(LockReport report, PrintWriter out) {
        ReportTable.title(out, "lock", report.fabric(), report.notes());
        if (report.time() != null) {
            out.println("every figure below is " + report.time());
        }
        RUN.print(out, "", report.runs());
        out.println(report.time() == null ? "(latency of one lock+unlock pair in usec; threads per node)"
                : "(latency of one lock+unlock pair in usec of virtual time, pairs per second of virtual time; "
                + "threads per node)");
        List<Speedup> speedups = Speedup.of(report).stream().filter(s -> s.spin().isPresent() || s.mcs().isPresent())
                .toList();
        if (!speedups.isEmpty()) {
            out.println("ALock throughput over the baselines, same invocation:");
            SPEEDUP.print(out, "", speedups);
        }
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void writeJson(LockReport report, PrintWriter out) {
        out.println(reportObject("lock", report.fabric(), b -> {
            field(b, "unit", str("usec"));
            if (report.time() != null) {
                field(b, "time", str(report.time()));
            }
        }, report.notes(),
                report.runs(), (b, r) -> b.append(RUN.json(r)), b -> b.append(",\"speedups\":[")
                        .append(String.join(",", Speedup.of(report).stream().map(SPEEDUP::json).toList())).append(']')));
        out.flush();
    }

    private static Double ratio(OptionalDouble r) {
        return r.isPresent() ? r.getAsDouble() : null;
    }

    private static String times(OptionalDouble r) {
        return r.isPresent() ? String.format("%.2fx", r.getAsDouble()) : "-";
    }

    private static double us(double nanos) {
        return LatencySummary.usec(nanos);
    }
}
