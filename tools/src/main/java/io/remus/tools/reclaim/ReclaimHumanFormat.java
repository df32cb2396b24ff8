package io.remus.tools.reclaim;

import io.remus.bench.reclaim.ReclaimBenchmarkResult;
import io.remus.core.fabric.Opcode;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The default output of {@code remus bench reclaim}: one row per run with throughput, retired, peak
 * and final unreclaimed memory, the epoch bound where there is one, RDMA operations per churn
 * operation by kind, and the reads that found freed memory (0 unless a reclaimer is broken).
 */
public final class ReclaimHumanFormat {
    private ReclaimHumanFormat() {
    }

    /**
     * @param report the runs
     * @param out    where they go
     */
    public static void write(ReclaimReport report, PrintWriter out) {
        out.println("remus bench reclaim on " + report.fabric());
        for (String note : report.notes()) {
            out.println("note: " + note);
        }
        out.printf("%-14s %5s %7s %10s %12s %11s %11s %11s %11s %6s %6s %6s %6s %5s%n", "reclaimer", "nodes",
                "threads", "ops", "ops/s", "retired", "peak", "final", "bound", "READ", "WRITE", "CAS", "FAA", "uaf");
        for (ReclaimBenchmarkResult r : report.runs()) {
            var c = r.config();
            out.printf("%-14s %5d %7d %10d %12.0f %11s %11s %11s %11s %6.2f %6.2f %6.2f %6.2f %5d%n",
                    ReclaimReport.label(r), c.nodes(), c.threadsPerNode(), r.ops(), r.opsPerSecond(),
                    bytes(r.retiredBytes()), bytes(r.peakUnreclaimedBytes()), bytes(r.finalUnreclaimedBytes()),
                    c.unreclaimedBound() < 0 ? "-" : bytes(c.unreclaimedBound()), r.postedPerOp(Opcode.READ),
                    r.postedPerOp(Opcode.WRITE), r.postedPerOp(Opcode.COMPARE_AND_SWAP),
                    r.postedPerOp(Opcode.FETCH_AND_ADD), r.violations());
        }
        for (ReclaimBenchmarkResult r : report.runs()) {
            if (r.firstViolation() != null) {
                out.println(ReclaimReport.label(r) + ": a read found freed memory: " + r.firstViolation());
            }
        }
        out.println("(threads per node; retired/peak/final: unreclaimed bytes summed over the workers; bound: the "
                + "epoch reclaimer's documented limit; READ..FAA: posted RDMA operations per churn operation; "
                + "uaf: reads that found freed memory)");
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
}
