package io.remus.tools.report;

import io.remus.bench.perftest.BenchReport;
import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.LatencyResult;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;

/**
 * perftest's result table ({@code --perftest-format}), with perftest's column names, so that
 * scripts written for perftest read it: latency columns {@code #bytes #iterations t_min[usec]
 * t_max[usec] t_typical[usec] t_avg[usec] t_stdev[usec] 99% percentile[usec] 99.9% percentile[usec]}
 * ({@code t_typical} is the median), bandwidth columns {@code #bytes #iterations BW peak[MB/sec]
 * BW average[MB/sec] MsgRate[Mpps]} (Gb/sec with {@code --report-gbits}).
 */
public final class PerftestFormat {
    static final String RULE = "-".repeat(87);

    private PerftestFormat() {
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
     *             a line {@code " every figure below is <time>"} under the title; null for the wall clock
     * @param out  where it goes
     */
    public static void write(BenchReport r, String time, PrintWriter out) {
        out.println(RULE);
        out.println("                    " + r.settings().test().operation().words() + " "
                + (r.settings().test().isLatency() ? "Latency" : "BW") + " Test (remus, " + r.fabric() + " fabric)");
        if (time != null) {
            out.println(" every figure below is " + time);
        }
        out.println(" " + r.measures());
        out.println(RULE);
        if (r.settings().test().isLatency()) {
            out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                    + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ");
            for (LatencyResult l : r.latency()) {
                LatencySummary s = l.summary();
                out.printf(" %-7d %-10d    %-7.2f        %-7.2f      %-7.2f            %-7.2f        %-7.2f"
                                + "         %-7.2f                %-7.2f   %n",
                        l.bytes(), s.count(), us(s.min()), us(s.max()), us(s.median()), us(s.mean()),
                        us(s.stdDev()), us(s.p99()), us(s.p999()));
            }
        } else {
            String unit = r.reportGbits() ? "Gb/sec" : "MB/sec";
            out.println(" #bytes     #iterations    BW peak[" + unit + "]    BW average[" + unit + "]   MsgRate[Mpps]");
            for (BandwidthSummary b : r.bandwidth()) {
                out.printf(" %-10d %-10d       %-10.2f         %-10.2f           %-10.6f%n", b.bytes(), b.iterations(),
                        r.reportGbits() ? b.peakGbitsPerSecond() : b.peakMbPerSecond(),
                        r.reportGbits() ? b.averageGbitsPerSecond() : b.averageMbPerSecond(), b.messageRateMpps());
            }
        }
        out.println(RULE);
        out.flush();
    }

    private static double us(double nanos) {
        return LatencySummary.usec(nanos);
    }
}
