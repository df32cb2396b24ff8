package io.remus.tools.experiment;

import io.remus.bench.object.SharingConfig;
import io.remus.bench.object.SharingResult;
import io.remus.bench.object.SharingRun;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.remus.tools.report.JsonReportWriter.reportObject;
import static io.remus.tools.report.JsonText.field;
import static io.remus.tools.report.JsonText.num;
import static io.remus.tools.report.JsonText.rdmaPerOp;
import static io.remus.tools.report.JsonText.str;

/**
 * The outputs of {@code remus experiment sharing}.
 * <p>
 * The default output: a title, the notes, and one row per thread count and way with throughput, latency
 * p50/p99 in microseconds, RDMA operations and round trips per increment, and the share of local picks.
 * <p>
 * {@code --json}: one object with keys {@code tool test fabric cost_model} (null on verbs) {@code nodes counters zipf p_local
 * seconds notes runs}; a run has {@code way threads_per_node increments local_picks ops_per_sec},
 * {@code latency_ns} ({@code count p50 p99 max mean}), {@code rdma_per_increment} (keyed by opcode,
 * lower case, and {@code total}) and {@code round_trips_per_increment}.
 */
public final class SharingFormat {
    private SharingFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param c     the first run's configuration
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where they go
     */
    public static void writeHuman(SharingConfig c, List<String> notes, List<SharingRun> runs, PrintWriter out) {
        out.println("remus experiment sharing: " + c.nodes() + " nodes, each worker increments a picked counter "
                + "and reads the result");
        for (String note : notes) {
            out.println("note: " + note);
        }
        out.printf("%-8s %-10s %14s %10s %10s %10s %10s %8s%n", "threads", "way", "ops/s", "p50[us]", "p99[us]",
                "rdma/inc", "rtt/inc", "local");
        for (SharingRun run : runs) {
            SharingResult r = run.result();
            LatencySummary l = run.latency();
            out.printf(Locale.ROOT, "%-8d %-10s %14.0f %10.2f %10.2f %10.2f %10.2f %7.0f%%%n", run.threadsPerNode(),
                    r.way().flagName(), r.opsPerSecond(), l.median() / 1000.0, l.p99() / 1000.0, r.postedPerIncrement(),
                    r.roundTripsPerIncrement(), r.increments() == 0 ? 0 : 100.0 * r.localPicks() / r.increments());
        }
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param c       the first run's configuration
     * @param fabric  the value of {@code fabric}
     * @param cost    the value of {@code cost_model}, or null
     * @param seconds the value of {@code seconds}
     * @param notes   the report's notes
     * @param runs    the runs
     * @param out     where the object goes, as one line
     */
    public static void writeJson(SharingConfig c, String fabric, String cost, double seconds, List<String> notes,
                                 List<SharingRun> runs, PrintWriter out) {
        out.println(reportObject("sharing", fabric, b -> {
            field(b, "cost_model", cost == null ? "null" : str(cost));
            field(b, "nodes", Integer.toString(c.nodes()));
            field(b, "counters", Integer.toString(c.counters()));
            field(b, "zipf", num(c.zipfTheta()));
            field(b, "p_local", c.usesPLocal() ? num(c.pLocal()) : "null");
            field(b, "seconds", num(seconds));
        }, notes, runs, SharingFormat::jsonRun, b -> { }));
        out.flush();
    }

    private static void jsonRun(StringBuilder b, SharingRun run) {
        SharingResult r = run.result();
        LatencySummary l = run.latency();
        b.append('{');
        field(b, "way", str(r.way().flagName()));
        field(b, "threads_per_node", Integer.toString(run.threadsPerNode()));
        field(b, "increments", Long.toString(r.increments()));
        field(b, "local_picks", Long.toString(r.localPicks()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        b.append("\"latency_ns\":{");
        field(b, "count", Long.toString(l.count()));
        field(b, "p50", Long.toString(l.median()));
        field(b, "p99", Long.toString(l.p99()));
        field(b, "max", Long.toString(l.max()));
        b.append("\"mean\":").append(num(l.mean())).append("},");
        field(b, "rdma_per_increment", rdmaPerOp(r::postedPerIncrement, r.postedPerIncrement()));
        b.append("\"round_trips_per_increment\":").append(num(r.roundTripsPerIncrement())).append('}');
    }
}
