package io.remus.tools.experiment;

import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvResult;
import io.remus.bench.object.KvRun;
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
 * The outputs of {@code remus experiment kv}.
 * <p>
 * The default output: a title, the notes, and one row per workload and way with throughput, read and update
 * latency p50/p99 in microseconds, RDMA operations and round trips per operation, and the share of local picks.
 * <p>
 * {@code --json}: one object with keys {@code tool test fabric cost_model} (null on verbs) {@code nodes threads_per_node keys value_bytes zipf
 * p_local seconds notes runs}; a run has {@code workload way reads updates local_picks ops_per_sec},
 * {@code read_latency_ns} and {@code update_latency_ns} ({@code count p50 p99 max mean}),
 * {@code rdma_per_op} (keyed by opcode, lower case, and {@code total}), {@code round_trips_per_op},
 * {@code round_trips_per_read}, {@code round_trips_per_update} and {@code memory_round_trips_per_update}.
 */
public final class KvFormat {
    private KvFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param c     the configuration
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where they go
     */
    public static void writeHuman(KvConfig c, List<String> notes, List<KvRun> runs, PrintWriter out) {
        out.println("remus experiment kv: " + c.nodes() + " nodes x " + c.threadsPerNode()
                + " workers, each reads or updates a picked key");
        for (String note : notes) {
            out.println("note: " + note);
        }
        out.printf("%-4s %-10s %12s %9s %9s %9s %9s %8s %8s %8s %8s %9s %6s%n", "ycsb", "way", "ops/s", "rd-p50", "rd-p99",
                "up-p50", "up-p99", "rdma/op", "rtt/op", "rtt/rd", "rtt/up", "mem/up", "local");
        for (KvRun run : runs) {
            KvResult r = run.result();
            out.printf(Locale.ROOT, "%-4s %-10s %12.0f %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %8.2f %8.2f %9.2f %5.0f%%%n",
                    r.workload(), r.way().flagName(), r.opsPerSecond(), run.reads().median() / 1000.0,
                    run.reads().p99() / 1000.0, run.updates().median() / 1000.0, run.updates().p99() / 1000.0,
                    r.postedPerOp(), r.roundTripsPerOp(), r.roundTripsPerRead(), r.roundTripsPerUpdate(),
                    r.memoryRoundTripsPerUpdate(), r.operations() == 0 ? 0 : 100.0 * r.localPicks() / r.operations());
        }
        out.println("(latencies in microseconds)");
        out.flush();
    }

    /**
     * The {@code --json} object.
     *
     * @param c       the configuration
     * @param fabric  the value of {@code fabric}
     * @param cost    the value of {@code cost_model}, or null
     * @param seconds the value of {@code seconds}
     * @param notes   the report's notes
     * @param runs    the runs
     * @return the object, on one line
     */
    public static String json(KvConfig c, String fabric, String cost, double seconds, List<String> notes, List<KvRun> runs) {
        return reportObject("kv", fabric, b -> {
            field(b, "cost_model", cost == null ? "null" : str(cost));
            field(b, "nodes", Integer.toString(c.nodes()));
            field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
            field(b, "keys", Integer.toString(c.keys()));
            field(b, "value_bytes", Integer.toString(c.valueBytes()));
            field(b, "zipf", num(c.zipfTheta()));
            field(b, "p_local", c.usesPLocal() ? num(c.pLocal()) : "null");
            field(b, "seconds", num(seconds));
        }, notes, runs, KvFormat::jsonRun, b -> { });
    }

    private static void jsonRun(StringBuilder b, KvRun run) {
        KvResult r = run.result();
        b.append('{');
        field(b, "workload", str(r.workload().name()));
        field(b, "way", str(r.way().flagName()));
        field(b, "reads", Long.toString(r.reads()));
        field(b, "updates", Long.toString(r.updates()));
        field(b, "local_picks", Long.toString(r.localPicks()));
        field(b, "ops_per_sec", num(r.opsPerSecond()));
        latency(b, "read_latency_ns", run.reads());
        latency(b, "update_latency_ns", run.updates());
        field(b, "rdma_per_op", rdmaPerOp(r::postedPerOp, r.postedPerOp()));
        field(b, "round_trips_per_op", num(r.roundTripsPerOp()));
        field(b, "round_trips_per_read", num(r.roundTripsPerRead()));
        field(b, "round_trips_per_update", num(r.roundTripsPerUpdate()));
        b.append("\"memory_round_trips_per_update\":").append(num(r.memoryRoundTripsPerUpdate())).append('}');
    }

    private static void latency(StringBuilder b, String name, LatencySummary l) {
        b.append('"').append(name).append("\":{");
        field(b, "count", Long.toString(l.count()));
        field(b, "p50", Long.toString(l.median()));
        field(b, "p99", Long.toString(l.p99()));
        field(b, "max", Long.toString(l.max()));
        b.append("\"mean\":").append(num(l.mean())).append("},");
    }
}
