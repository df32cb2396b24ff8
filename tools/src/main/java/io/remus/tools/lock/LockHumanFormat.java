package io.remus.tools.lock;

import io.remus.bench.lock.LockRun;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;
import java.util.OptionalDouble;

/**
 * The default output of {@code remus bench lock}: one row per run, then ALock's throughput over the
 * spin and MCS locks at each grid point where the same invocation ran them.
 */
public final class LockHumanFormat {
    private LockHumanFormat() {
    }

    /**
     * @param report the runs
     * @param out    where they go
     */
    public static void write(LockReport report, PrintWriter out) {
        out.println("remus bench lock on " + report.fabric());
        for (String note : report.notes()) {
            out.println("note: " + note);
        }
        out.printf("%-18s %5s %7s %6s %7s %12s %12s %7s %9s %9s %9s %9s %10s%n", "lock", "nodes", "threads",
                "p_local", "keys", "pairs", "pairs/s", "local%", "median", "p90", "p99", "p99.9", "max");
        for (LockRun r : report.runs()) {
            var c = r.config();
            LatencySummary l = r.latency();
            out.printf("%-18s %5d %7d %6.3f %7d %12d %12.0f %7.1f %9.3f %9.3f %9.3f %9.3f %10.3f%n",
                    c.kind().cliName(), c.nodes(), c.threadsPerNode(), c.pLocal(), c.keys(), r.operations(),
                    r.throughput(), 100 * r.localFraction(), us(l.median()), us(l.p90()), us(l.p99()),
                    us(l.p999()), us(l.max()));
        }
        out.println("(latency of one lock+unlock pair in usec; threads per node)");
        boolean header = false;
        for (GridPoint p : GridPoint.of(report)) {
            OptionalDouble spin = report.alockSpeedup("spin", p.pLocal(), p.keys());
            OptionalDouble mcs = report.alockSpeedup("mcs", p.pLocal(), p.keys());
            if (spin.isEmpty() && mcs.isEmpty()) {
                continue;
            }
            if (!header) {
                out.println("ALock throughput over the baselines, same invocation:");
                out.printf("%6s %7s %10s %10s%n", "p_local", "keys", "vs spin", "vs mcs");
                header = true;
            }
            out.printf("%6.3f %7d %10s %10s%n", p.pLocal(), p.keys(), ratio(spin), ratio(mcs));
        }
        out.flush();
    }

    private static String ratio(OptionalDouble r) {
        return r.isPresent() ? String.format("%.2fx", r.getAsDouble()) : "-";
    }

    private static double us(double nanos) {
        return LatencySummary.usec(nanos);
    }
}
