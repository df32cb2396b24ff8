package io.remus.tools.lock;

import io.remus.bench.lock.LockRun;
import io.remus.core.error.BadArgumentException;

import java.util.ArrayList;
import java.util.List;

/**
 * The lock benchmark's CSV: one header-less row per run, comma-separated, numbers in the ROOT
 * locale, columns in the order of {@link #COLUMNS}:
 * <pre>
 *  1 fabric            sim | verbs
 *  2 lock              alock | spin | mcs | alock-remote-only | alock-parking
 *  3 nodes             nodes in the run
 *  4 threads_per_node  worker threads per node
 *  5 p_local           probability that a pair picks a lock homed on the worker's node
 *  6 keys              locks in the table (fewer keys = more contention)
 *  7 local_budget      ALock local cohort budget
 *  8 remote_budget     ALock remote cohort budget
 *  9 seconds           measured wall time
 * 10 operations        lock/unlock pairs completed
 * 11 local_operations  of those, on local locks
 * 12 ops_per_sec       throughput, pairs per second
 * 13-19 min_us median_us mean_us p90_us p99_us p99_9_us max_us   latency of one pair (HdrHistogram)
 * </pre>
 */
public final class LockCsv {
    /** The column names in order; the file itself has no header. */
    public static final List<String> COLUMNS = LockFormat.RUN.csvNames();

    private LockCsv() {
    }

    /**
     * @param run a measured point
     * @return its CSV row, without a line terminator
     */
    public static String row(LockRun run) {
        return LockFormat.RUN.csvRow(run);
    }

    /**
     * Parses rows written by {@link #row(LockRun)}; blank lines and lines starting with {@code #}
     * are skipped.
     *
     * @param lines the file's lines
     * @return the rows' plotted fields
     * @throws BadArgumentException naming the line when a row does not have the documented shape
     */
    public static List<Row> parse(List<String> lines) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != COLUMNS.size()) {
                throw new BadArgumentException("line " + (i + 1) + ": " + f.length + " fields, expected "
                        + COLUMNS.size() + " (" + String.join(",", COLUMNS) + ")");
            }
            try {
                rows.add(new Row(f[0], f[1], Double.parseDouble(f[4]), Integer.parseInt(f[5]),
                        Double.parseDouble(f[11]), Double.parseDouble(f[13]), Double.parseDouble(f[16])));
            } catch (NumberFormatException e) {
                throw new BadArgumentException("line " + (i + 1) + ": not a number: " + e.getMessage());
            }
        }
        return rows;
    }

    /**
     * The fields of a row that plots use.
     *
     * @param fabric    the fabric
     * @param lock      the lock kind's command-line name
     * @param pLocal    the local probability
     * @param keys      locks in the table
     * @param opsPerSec throughput
     * @param medianUs  median pair latency
     * @param p99Us     99th percentile pair latency
     */
    public record Row(String fabric, String lock, double pLocal, int keys, double opsPerSec, double medianUs,
                      double p99Us) {
    }
}
