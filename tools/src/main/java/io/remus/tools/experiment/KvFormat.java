package io.remus.tools.experiment;

import io.remus.bench.object.KvConfig;
import io.remus.bench.object.KvRun;
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
 * The outputs of {@code remus experiment kv}, from one declaration of a run's columns.
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
    private static final ReportTable<KvRun> RUN = new ReportTable<KvRun>(Locale.ROOT)
            .field("workload", r -> r.result().workload().name()).shown("ycsb", "%-4s")
            .field("way", r -> r.result().way().flagName()).shown("way", "%-10s")
            .field("reads", r -> r.result().reads())
            .field("updates", r -> r.result().updates())
            .field("local_picks", r -> r.result().localPicks())
            .field("ops_per_sec", r -> r.result().opsPerSecond()).shown("ops/s", "%12.0f")
            .latencyNs("read_latency_ns", KvRun::reads, "rd-p50", "rd-p99", "%9.2f")
            .latencyNs("update_latency_ns", KvRun::updates, "up-p50", "up-p99", "%9.2f")
            .json("rdma_per_op", r -> rdmaPerOp(r.result()::postedPerOp, r.result().postedPerOp()))
            .shown("rdma/op", "%8.2f", r -> r.result().postedPerOp())
            .field("round_trips_per_op", r -> r.result().roundTripsPerOp()).shown("rtt/op", "%8.2f")
            .field("round_trips_per_read", r -> r.result().roundTripsPerRead()).shown("rtt/rd", "%8.2f")
            .field("round_trips_per_update", r -> r.result().roundTripsPerUpdate()).shown("rtt/up", "%8.2f")
            .field("memory_round_trips_per_update", r -> r.result().memoryRoundTripsPerUpdate()).shown("mem/up", "%9.2f")
            .column("local", "%6s", r -> percent(r.result().localPicks(), r.result().operations()));

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
        writeHuman(c, notes, runs, null, out);
    }

    /**
     * Writes the default output, its figures timed as {@code time} says.
     *
     * @param c     the configuration
     * @param notes the report's notes
     * @param runs  the runs
     * @param time  how the figures were timed ({@code "virtual time, model ..."}), or null for the wall clock
     * @param out   where they go
     */
    public static void writeHuman(KvConfig c, List<String> notes, List<KvRun> runs, String time, PrintWriter out) {
        out.println("remus experiment kv: " + c.nodes() + " nodes x " + c.threadsPerNode()
                + " workers, each reads or updates a picked key");
        notes.forEach(note -> out.println("note: " + note));
        if (time != null) {
            out.println("every figure below is " + time);
        }
        RUN.print(out, "", runs);
        out.println(time == null ? "(latencies in microseconds)"
                : "(operations per second and latencies in microseconds of virtual time)");
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
        return json(c, fabric, cost, seconds, notes, runs, null);
    }

    /**
     * The {@code --json} object, with {@code time} after {@code cost_model} when the figures are not wall clock: its
     * seconds, throughputs and latencies are then virtual time.
     *
     * @param c       the configuration
     * @param fabric  the value of {@code fabric}
     * @param cost    the value of {@code cost_model}, or null
     * @param seconds the value of {@code seconds}
     * @param notes   the report's notes
     * @param runs    the runs
     * @param time    the value of {@code time} ({@code "virtual time, model ..."}), or null for the wall clock (no key)
     * @return the object, on one line
     */
    public static String json(KvConfig c, String fabric, String cost, double seconds, List<String> notes, List<KvRun> runs,
                              String time) {
        return reportObject("kv", fabric, b -> {
            field(b, "cost_model", cost == null ? "null" : str(cost));
            if (time != null) {
                field(b, "time", str(time));
            }
            field(b, "nodes", Integer.toString(c.nodes()));
            field(b, "threads_per_node", Integer.toString(c.threadsPerNode()));
            field(b, "keys", Integer.toString(c.keys()));
            field(b, "value_bytes", Integer.toString(c.valueBytes()));
            field(b, "zipf", num(c.zipfTheta()));
            field(b, "p_local", c.usesPLocal() ? num(c.pLocal()) : "null");
            field(b, "seconds", num(seconds));
        }, notes, runs, (b, r) -> b.append(RUN.json(r)), b -> { });
    }

    /**
     * @param part  the local picks
     * @param whole the operations
     * @return {@code part} as a whole percentage of {@code whole} with a percent sign, {@code 0%} of none
     */
    static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.0f%%", whole == 0 ? 0 : 100.0 * part / whole);
    }
}
