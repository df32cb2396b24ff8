package io.remus.tools.report;

import io.remus.bench.perftest.BenchReport;
import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.LatencyResult;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;

/** The default output: a header saying what was measured and how, then one row per size. */
public final class HumanFormat {
    private HumanFormat() {
    }

    /**
     * @param r   the report
     * @param out where it goes
     */
    public static void write(BenchReport r, PrintWriter out) {
        write(r, null, out);
    }

    /**
     * @param r    the report
     * @param time how its figures were timed when not by the wall clock ({@link io.remus.bench.engines.SimTime#label()}):
     *             a line {@code "every figure below is <time>"} after the header; null for the wall clock
     * @param out  where it goes
     */
    public static void write(BenchReport r, String time, PrintWriter out) {
        out.println("remus bench " + r.settings().test().commandName() + " on " + r.transport());
        if (time != null) {
            out.println("every figure below is " + time);
        }
        out.println(r.measures());
        out.println(r.runLength());
        for (String note : r.notes()) {
            out.println("note: " + note);
        }
        if (r.settings().test().isLatency()) {
            out.printf("%10s %12s %10s %10s %10s %10s %10s %10s %10s %10s %10s%n", "#bytes", "#iterations",
                    "min", "median", "mean", "stddev", "p90", "p99", "p99.9", "p99.99", "max");
            for (LatencyResult l : r.latency()) {
                LatencySummary s = l.summary();
                out.printf("%10d %12d %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f%n", l.bytes(),
                        s.count(), us(s.min()), us(s.median()), us(s.mean()), us(s.stdDev()), us(s.p90()),
                        us(s.p99()), us(s.p999()), us(s.p9999()), us(s.max()));
            }
            out.println("(all times in usec)");
        } else {
            String unit = r.reportGbits() ? "Gb/sec" : "MB/sec";
            out.printf("%10s %12s %10s %16s %16s %14s%n", "#bytes", "#iterations", "seconds",
                    "BW peak[" + unit + "]", "BW avg[" + unit + "]", "MsgRate[Mpps]");
            for (BandwidthSummary b : r.bandwidth()) {
                out.printf("%10d %12d %10.3f %16.2f %16.2f %14.6f%n", b.bytes(), b.iterations(), b.seconds(),
                        r.reportGbits() ? b.peakGbitsPerSecond() : b.peakMbPerSecond(),
                        r.reportGbits() ? b.averageGbitsPerSecond() : b.averageMbPerSecond(), b.messageRateMpps());
            }
            out.println("(MB = 2^20 bytes, Gb = 10^9 bits; peak = best rate over spans from a post to a later "
                    + "completion, the whole run among them)");
        }
        out.flush();
    }

    private static double us(double nanos) {
        return LatencySummary.usec(nanos);
    }
}
