package io.remus.tools.experiment;

import io.remus.bench.object.SharingConfig;
import io.remus.bench.object.SharingRun;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.num;
import static io.remus.bench.report.JsonText.rdmaPerOp;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus experiment sharing}, from one declaration of a run's columns.
 * <p>
 * The default output: a title, the notes, and one row per thread count and way with throughput, latency
 * p50/p99 in microseconds, RDMA operations and round trips per increment, and the share of local picks.
 * <p>
 * {@code --json}: one object with keys {@code tool test fabric cost_model} (null on verbs) {@code nodes counters zipf p_local
 * seconds notes runs}; a run has {@code way threads_per_node increments local_picks ops_per_sec},
 * {@code latency_ns} ({@code count p50 p99 max mean}), {@code rdma_per_increment} (keyed by opcode,
 * lower case, and {@code total}) and {@code round_trips_per_increment}.
 * A report timed in virtual time has {@code time} after {@code cost_model}
 * ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}): its seconds, throughputs and latencies are
 * virtual time, and the default output says so above its table.
 */
public final class SharingFormat {
    private static final ReportTable<SharingRun> RUN = new ReportTable<SharingRun>(Locale.ROOT)
            .field("way", r -> r.result().way().flagName())
            .field("threads_per_node", SharingRun::threadsPerNode).shown("threads", "%-8d")
            .field("increments", r -> r.result().increments())
            .field("local_picks", r -> r.result().localPicks())
            .column("way", "%-10s", r -> r.result().way().flagName())
            .field("ops_per_sec", r -> r.result().opsPerSecond()).shown("ops/s", "%14.0f")
            .latencyNs("latency_ns", SharingRun::latency, "p50[us]", "p99[us]", "%10.2f")
            .json("rdma_per_increment", r -> rdmaPerOp(r.result()::postedPerIncrement, r.result().postedPerIncrement()))
            .shown("rdma/inc", "%10.2f", r -> r.result().postedPerIncrement())
            .field("round_trips_per_increment", r -> r.result().roundTripsPerIncrement()).shown("rtt/inc", "%10.2f")
            .column("local", "%8s", r -> KvFormat.percent(r.result().localPicks(), r.result().increments()));

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
        writeHuman(c, notes, runs, null, out);
    }

    /**
     * Writes the default output, its figures timed as {@code time} says.
     *
     * @param c     the first run's configuration
     * @param notes the report's notes
     * @param runs  the runs
     * @param time  how the figures were timed ({@code "virtual time, model ..."}), or null for the wall clock
     * @param out   where they go
     */
    public static void writeHuman(SharingConfig c, List<String> notes, List<SharingRun> runs, String time,
                                  PrintWriter out) {
        out.println("remus experiment sharing: " + c.nodes() + " nodes, each worker increments a picked counter "
                + "and reads the result");
        notes.forEach(note -> out.println("note: " + note));
        if (time != null) {
            out.println("every figure below is " + time);
        }
        RUN.print(out, "", runs);
        if (time != null) {
            out.println("(increments per second and latencies in usec of virtual time)");
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
        writeJson(c, fabric, cost, seconds, notes, runs, null, out);
    }

    /**
     * Writes the {@code --json} object, with {@code time} when the figures are not wall clock.
     *
     * @param c       the first run's configuration
     * @param fabric  the value of {@code fabric}
     * @param cost    the value of {@code cost_model}, or null
     * @param seconds the value of {@code seconds}
     * @param notes   the report's notes
     * @param runs    the runs
     * @param time    the value of {@code time} ({@code "virtual time, model ..."}), or null for the wall clock (no key)
     * @param out     where the object goes, as one line
     */
    public static void writeJson(SharingConfig c, String fabric, String cost, double seconds, List<String> notes,
                                 List<SharingRun> runs, String time, PrintWriter out) {
        out.println(reportObject("sharing", fabric, b -> {
            field(b, "cost_model", cost == null ? "null" : str(cost));
            if (time != null) {
                field(b, "time", str(time));
            }
            field(b, "nodes", Integer.toString(c.nodes()));
            field(b, "counters", Integer.toString(c.counters()));
            field(b, "zipf", num(c.zipfTheta()));
            field(b, "p_local", c.usesPLocal() ? num(c.pLocal()) : "null");
            field(b, "seconds", num(seconds));
        }, notes, runs, (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }
}
