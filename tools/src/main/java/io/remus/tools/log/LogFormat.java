package io.remus.tools.log;

import io.remus.bench.replicate.LogBenchmarkResult;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench log}, from one declaration of a run's columns.
 * <p>
 * The default output: a line saying how every figure was timed, then one row per run with the group's size, the
 * entry size, the appends and slots, the replication latency's median, p99 and maximum, RDMA operations and round
 * trips per append, bytes written per append and the commit throughput.
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "log"}), {@code fabric}
 * ({@code "sim"}), {@code time} ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}),
 * {@code notes} and {@code runs}. A run has {@code replicas entry_bytes slots appends seconds appends_per_sec},
 * {@code latency_ns} (an object: {@code count p50 p99 p999 max mean}, each append from its call to its return),
 * {@code rdma_per_op} (RDMA operations the leader posted per append: an object keyed by opcode, lower case, and
 * {@code total}),
 * {@code round_trips_per_append}, {@code bytes_written_per_append}, {@code bytes_read_per_append},
 * {@code committed} and {@code min_applied} (the fewest entries a member applied). Every time is virtual time; the
 * same command line and seed give the same object.
 */
public final class LogFormat {
    private static final ReportTable<LogBenchmarkResult> RUN = new ReportTable<LogBenchmarkResult>(Locale.ROOT)
            .field("replicas", r -> r.config().replicas()).shown("replicas", "%8d")
            .field("entry_bytes", r -> r.config().entryBytes()).shown("entry B", "%8d")
            .field("slots", r -> r.config().slots()).shown("slots", "%6d")
            .field("appends", r -> r.config().appends()).shown("appends", "%8d")
            .field("seconds", r -> r.elapsedNanos() / 1e9)
            .field("appends_per_sec", r -> r.appendsPerSecond()).shown("appends/s", "%10.0f")
            .field("latency_ns.count", r -> r.latency().count())
            .field("latency_ns.p50", r -> r.latency().median()).shown("p50 us", "%7.3f", r -> us(r.latency().median()))
            .field("latency_ns.p99", r -> r.latency().p99()).shown("p99 us", "%7.3f", r -> us(r.latency().p99()))
            .field("latency_ns.p999", r -> r.latency().p999())
            .field("latency_ns.max", r -> r.latency().max()).shown("max us", "%7.3f", r -> us(r.latency().max()))
            .field("latency_ns.mean", r -> r.latency().mean())
            .rdmaPerOp(r -> r::postedPerAppend, r -> r.postedPerAppend())
            .field("round_trips_per_append", r -> r.roundTripsPerAppend()).shown("RT", "%5.2f")
            .field("bytes_written_per_append", r -> r.bytesWrittenPerAppend()).shown("B written", "%9.1f")
            .field("bytes_read_per_append", r -> r.bytesReadPerAppend())
            .field("committed", r -> r.committed())
            .field("min_applied", r -> r.minApplied());

    private LogFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param time  how the figures were timed ({@code SimTime#label()})
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where they go
     */
    public static void writeHuman(String time, List<String> notes, List<LogBenchmarkResult> runs, PrintWriter out) {
        ReportTable.title(out, "log", "sim", notes);
        out.println("every figure below is " + time);
        RUN.print(out, "", runs);
        out.println("(p50/p99/max: replication latency of one append in virtual time, from the call to the return once "
                + "a majority holds the entry; READ..total: RDMA operations the leader posted per append; RT: round "
                + "trips per append; B written: payload bytes of the leader's WRITEs per append; appends/s: commit "
                + "throughput of one leader appending one entry at a time, per second of virtual time)");
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param time  how the figures were timed
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where the object goes, as one line
     */
    public static void writeJson(String time, List<String> notes, List<LogBenchmarkResult> runs, PrintWriter out) {
        out.println(reportObject("log", "sim", b -> field(b, "time", str(time)), notes, runs,
                (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    private static double us(long nanos) {
        return nanos / 1000.0;
    }
}
