package io.remus.tools.reclaim;

import io.remus.bench.reclaim.ReclaimReport;
import io.remus.bench.reclaim.ReclaimBenchmarkResult;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench reclaim}, from one declaration of a run's columns.
 * <p>
 * The default output: one row per run with throughput, retired, peak and final unreclaimed memory, the epoch
 * bound where there is one, RDMA operations per churn operation by kind, and the reads that found freed
 * memory (0 unless a reclaimer is broken).
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "reclaim"}), {@code fabric},
 * {@code notes} and {@code runs}. A run has {@code reclaimer stall nodes threads_per_node slots read_percent
 * lease_ms limit_bytes barrier_every seconds operations ops_per_sec reads replaces restarts violations
 * first_violation} (what the first read that found freed memory saw, or null) {@code retired_bytes
 * peak_unreclaimed_bytes final_unreclaimed_bytes unreclaimed_bound} (null when the reclaimer has none)
 * {@code limit_timeouts}, {@code rdma_per_op} (an object keyed by opcode, lower case, and {@code total}) and
 * {@code samples}, an array of {@code [millis, unreclaimed_bytes, operations]}.
 * <p>
 * A report timed in virtual time ({@link ReclaimReport#time()}) has {@code time} after {@code fabric}
 * ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}): its seconds, throughputs, sample times and
 * leases are virtual time, and the default output says so above its table.
 */
public final class ReclaimFormat {
    private static final ReportTable<ReclaimBenchmarkResult> RUN = new ReportTable<ReclaimBenchmarkResult>()
            .column("reclaimer", "%-14s", ReclaimReport::label)
            .field("reclaimer", r -> r.config().reclaimer().flagName())
            .field("stall", r -> r.config().stall())
            .field("nodes", r -> r.config().nodes()).shown("nodes", "%5d")
            .field("threads_per_node", r -> r.config().threadsPerNode()).shown("threads", "%7d")
            .field("slots", r -> r.config().slots())
            .field("read_percent", r -> r.config().readPercent())
            .field("lease_ms", r -> r.config().epoch().lease().toMillis())
            .field("limit_bytes", r -> r.config().epoch().limitBytes())
            .field("barrier_every", r -> r.config().barrierEvery())
            .field("seconds", r -> r.elapsedNanos() / 1e9)
            .field("operations", ReclaimBenchmarkResult::ops).shown("ops", "%10d")
            .field("ops_per_sec", ReclaimBenchmarkResult::opsPerSecond).shown("ops/s", "%12.0f")
            .field("reads", ReclaimBenchmarkResult::reads)
            .field("replaces", ReclaimBenchmarkResult::replaces)
            .field("restarts", ReclaimBenchmarkResult::restarts)
            .field("violations", ReclaimBenchmarkResult::violations)
            .field("first_violation", ReclaimBenchmarkResult::firstViolation)
            .field("retired_bytes", ReclaimBenchmarkResult::retiredBytes)
            .shown("retired", "%11s", r -> bytes(r.retiredBytes()))
            .field("peak_unreclaimed_bytes", ReclaimBenchmarkResult::peakUnreclaimedBytes)
            .shown("peak", "%11s", r -> bytes(r.peakUnreclaimedBytes()))
            .field("final_unreclaimed_bytes", ReclaimBenchmarkResult::finalUnreclaimedBytes)
            .shown("final", "%11s", r -> bytes(r.finalUnreclaimedBytes()))
            .field("unreclaimed_bound", r -> r.config().unreclaimedBound() < 0 ? null : r.config().unreclaimedBound())
            .shown("bound", "%11s", r -> r.config().unreclaimedBound() < 0 ? "-" : bytes(r.config().unreclaimedBound()))
            .field("limit_timeouts", ReclaimBenchmarkResult::limitTimeouts)
            .rdmaPerOp(r -> r::postedPerOp, ReclaimBenchmarkResult::postedPerOp)
            .json("samples", ReclaimFormat::samples)
            .column("uaf", "%5d", ReclaimBenchmarkResult::violations);

    private ReclaimFormat() {
    }

    /**
     * Writes the default output.
     *
     * @param report the runs
     * @param out    where they go
     */
    public static void writeHuman(ReclaimReport report, PrintWriter out) {
        List<String> after = new ArrayList<>();
        for (ReclaimBenchmarkResult r : report.runs()) {
            if (r.firstViolation() != null) {
                after.add(ReclaimReport.label(r) + ": a read found freed memory: " + r.firstViolation());
            }
        }
        after.add("(threads per node; " + (report.time() == null ? "" : "ops/s: operations per second of virtual "
                + "time; ") + "retired/peak/final: unreclaimed bytes summed over the workers; bound: the "
                + "epoch reclaimer's documented limit; READ..FAA: posted RDMA operations per churn operation; "
                + "uaf: reads that found freed memory)");
        ReportTable.title(out, "reclaim", report.fabric(), report.notes());
        if (report.time() != null) {
            out.println("every figure below is " + report.time());
        }
        RUN.print(out, "", report.runs());
        after.forEach(out::println);
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void writeJson(ReclaimReport report, PrintWriter out) {
        out.println(reportObject("reclaim", report.fabric(), b -> {
            if (report.time() != null) {
                field(b, "time", str(report.time()));
            }
        }, report.notes(), report.runs(), (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    /**
     * @param n bytes
     * @return {@code n} in B, KiB, MiB or GiB with one decimal
     */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String samples(ReclaimBenchmarkResult r) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < r.samples().size(); i++) {
            var s = r.samples().get(i);
            b.append(i == 0 ? "[" : ",[").append(s.millis()).append(',').append(s.unreclaimedBytes()).append(',')
                    .append(s.ops()).append(']');
        }
        return b.append(']').toString();
    }
}
