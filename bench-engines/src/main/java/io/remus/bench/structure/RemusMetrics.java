package io.remus.bench.structure;

import io.remus.core.error.BadArgumentException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code metrics.txt} file of Remus' integer-set benchmarks ({@code benchmark/intset_test.h}'s
 * {@code Metrics::to_file}): one {@code key: value} line per key, in {@link #KEYS} order, so that scripts
 * written for Remus read a run of {@link DsBenchmark}. {@code duration} is in microseconds; the outcome
 * counts map the operation types as: lookups and the get of a read-modify-write to {@code get_t/get_f},
 * inserts and updates (puts; true when the key was new) to {@code ins_t/ins_f}, removes to
 * {@code rmv_t/rmv_f}; the RDMA counts ({@code write}, {@code bytes_write}, {@code read},
 * {@code bytes_read}, {@code faa}, {@code cas}) are the sums over every worker's measured operations (a
 * read-modify-write's put is in its RDMA counts, not in {@code ins_t/ins_f}).
 */
public final class RemusMetrics {
    /** The keys, in the order Remus writes them. */
    public static final List<String> KEYS = List.of("duration", "get_t", "get_f", "ins_t", "ins_f", "rmv_t", "rmv_f",
            "op_count", "write", "bytes_write", "read", "bytes_read", "faa", "cas");

    private RemusMetrics() {
    }

    /**
     * @param r a run
     * @return the values by key, in {@link #KEYS} order
     */
    public static Map<String, Long> of(DsBenchmarkResult r) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("duration", r.elapsedNanos() / 1000);
        m.put("get_t", r.succeeded(OpType.LOOKUP) + r.succeeded(OpType.RMW));
        m.put("get_f", r.failed(OpType.LOOKUP) + r.failed(OpType.RMW));
        m.put("ins_t", r.succeeded(OpType.INSERT) + r.succeeded(OpType.UPDATE));
        m.put("ins_f", r.failed(OpType.INSERT) + r.failed(OpType.UPDATE));
        m.put("rmv_t", r.succeeded(OpType.REMOVE));
        m.put("rmv_f", r.failed(OpType.REMOVE));
        m.put("op_count", r.ops());
        m.put("write", r.total(Cost.WRITES));
        m.put("bytes_write", r.total(Cost.BYTES_WRITTEN));
        m.put("read", r.total(Cost.READS));
        m.put("bytes_read", r.total(Cost.BYTES_READ));
        m.put("faa", r.total(Cost.FETCH_AND_ADDS));
        m.put("cas", r.total(Cost.COMPARE_AND_SWAPS));
        return m;
    }

    /**
     * Writes the file's lines.
     *
     * @param r   a run
     * @param out where they go (flushed)
     */
    public static void write(DsBenchmarkResult r, PrintWriter out) {
        for (Map.Entry<String, Long> e : of(r).entrySet()) {
            out.print(e.getKey() + ": " + e.getValue() + "\n");
        }
        out.flush();
    }

    /**
     * Reads a file in this format back.
     *
     * @param in the text
     * @return the values by key, in file order
     * @throws BadArgumentException naming the line when one is not {@code key: integer}
     * @throws IOException          when reading fails
     */
    public static Map<String, Long> parse(Reader in) throws IOException {
        Map<String, Long> m = new LinkedHashMap<>();
        BufferedReader lines = new BufferedReader(in);
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(": ");
            try {
                m.put(line.substring(0, colon), Long.parseLong(line.substring(colon + 2).strip()));
            } catch (RuntimeException e) {
                throw new BadArgumentException("not a 'key: integer' metrics line: '" + line + "'");
            }
        }
        return m;
    }
}
