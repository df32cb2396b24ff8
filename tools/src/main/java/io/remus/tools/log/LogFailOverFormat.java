package io.remus.tools.log;

import io.remus.bench.replicate.LogFailOverResult;
import io.remus.bench.report.ReportTable;
import io.remus.core.fabric.Opcode;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench log --fail-over}, from one declaration of a run's columns.
 * <p>
 * The default output: a line saying how every figure was timed, then one row per run with the group's size, the
 * entry size, how the leader crashed, the suspicion count and the transport timeout, then the three phases of the
 * fail-over in microseconds of virtual time (detection, election and takeover, first new commit) and their sum, the
 * takeover's READs, WRITEs and round trips, and the entries it recovered.
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "log"}), {@code fabric}
 * ({@code "sim"}), {@code time}, {@code mode} ({@code "fail-over"}), {@code notes} and {@code runs}. A run has
 * {@code replicas entry_bytes slots appends crash suspect_after transport_timeout_ns}; the phases
 * {@code detection_ns takeover_ns first_append_ns}; the instants from the crash {@code detected_ns all_suspect_ns
 * took_over_ns first_commit_ns}; {@code takeover_rdma} (RDMA operations the new leader posted during
 * {@code takeOver}: an object keyed by opcode, lower case, and {@code total}); {@code takeover_round_trips},
 * {@code takeover_bytes_read}, {@code takeover_bytes_written}, {@code recovered}, {@code rewrite_writes},
 * {@code false_suspicions} and {@code min_applied}. Every time is virtual time in nanoseconds; the same command line
 * and seed give the same object.
 */
public final class LogFailOverFormat {
    private static final ReportTable<LogFailOverResult> RUN = table();

    private LogFailOverFormat() {
    }

    private static ReportTable<LogFailOverResult> table() {
        ReportTable<LogFailOverResult> t = new ReportTable<LogFailOverResult>(Locale.ROOT)
                .field("replicas", r -> r.config().replicas()).shown("replicas", "%8d")
                .field("entry_bytes", r -> r.config().entryBytes()).shown("entry B", "%7d")
                .field("slots", r -> r.config().slots())
                .field("appends", r -> r.config().appends()).shown("appends", "%7d")
                .field("crash", r -> r.config().crash().flag()).shown("crash", "%7s")
                .field("suspect_after", r -> r.config().suspectAfter()).shown("suspect", "%7d")
                .field("transport_timeout_ns", r -> r.config().transportTimeoutNanos())
                .shown("timeout us", "%10.0f", r -> us(r.config().transportTimeoutNanos()))
                .field("detection_ns", r -> r.detectionNanos()).shown("detect us", "%10.3f", r -> us(r.detectionNanos()))
                .field("takeover_ns", r -> r.takeoverNanos()).shown("takeover us", "%11.3f", r -> us(r.takeoverNanos()))
                .field("first_append_ns", r -> r.firstAppendNanos())
                .shown("1st commit us", "%13.3f", r -> us(r.firstAppendNanos()))
                .field("detected_ns", r -> r.detectedNanos())
                .field("all_suspect_ns", r -> r.allSuspectNanos())
                .field("took_over_ns", r -> r.tookOverNanos())
                .field("first_commit_ns", r -> r.firstCommitNanos()).shown("total us", "%10.3f", r -> us(r.firstCommitNanos()));
        for (Opcode op : Opcode.values()) {
            t.field("takeover_rdma." + op.name().toLowerCase(Locale.ROOT), r -> r.takeoverPosted(op));
            if (op == Opcode.READ) {
                t.shown("READ", "%5d");
            } else if (op == Opcode.WRITE) {
                t.shown("WRITE", "%5d");
            }
        }
        return t.field("takeover_rdma.total", r -> r.takeoverPostedTotal())
                .field("takeover_round_trips", r -> r.takeoverRoundTrips()).shown("RT", "%4d")
                .field("takeover_bytes_read", r -> r.takeoverBytesRead())
                .field("takeover_bytes_written", r -> r.takeoverBytesWritten())
                .field("recovered", r -> r.recovered()).shown("recovered", "%9d")
                .field("rewrite_writes", r -> r.rewriteWrites())
                .field("false_suspicions", r -> r.falseSuspicions())
                .field("min_applied", r -> r.minApplied());
    }

    /**
     * Writes the default output.
     *
     * @param time  how the figures were timed ({@code SimTime#label()})
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where they go
     */
    public static void writeHuman(String time, List<String> notes, List<LogFailOverResult> runs, PrintWriter out) {
        ReportTable.title(out, "log", "sim", notes);
        out.println("every figure below is " + time);
        RUN.print(out, "", runs);
        out.println("(detect: from the crash to the new leader's agent suspecting the old leader; takeover: from then "
                + "to LogLeader.takeOver returning; 1st commit: from then to the new leader's first append returning; "
                + "total: crash to first new commit, all in virtual time; READ WRITE RT: RDMA operations and round trips "
                + "the new leader posted during takeOver; recovered: the log's length after it)");
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
    public static void writeJson(String time, List<String> notes, List<LogFailOverResult> runs, PrintWriter out) {
        out.println(reportObject("log", "sim", b -> {
            field(b, "time", str(time));
            field(b, "mode", str("fail-over"));
        }, notes, runs, (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    private static double us(long nanos) {
        return nanos / 1000.0;
    }
}
