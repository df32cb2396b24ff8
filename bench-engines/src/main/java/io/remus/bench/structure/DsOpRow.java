package io.remus.bench.structure;

import io.remus.bench.stats.LatencySummary;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The operations of one type, or of all types, in a run of {@code remus bench ds}: one row of its report.
 *
 * @param name     the type's label, or {@code all}
 * @param ops      operations
 * @param ok       of them, those that returned true
 * @param outcomes the true and false counts in words, such as {@code 0 inserted, 37 replaced} ({@code -} for all)
 * @param latency  their latency
 * @param perOp    the compute threads' counts per operation
 */
public record DsOpRow(String name, long ops, long ok, String outcomes, LatencySummary latency,
                      ToDoubleFunction<Cost> perOp) {
    private static final LatencySummary NONE = new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * @param run a run
     * @return one row per operation type the run issued, in {@link OpType} order, then the row {@code all}
     */
    public static List<DsOpRow> of(DsRun run) {
        DsBenchmarkResult r = run.result();
        boolean map = r.config().structure() == StructureKind.HASH_MAP;
        List<DsOpRow> rows = new ArrayList<>();
        long ok = 0;
        for (OpType op : OpType.values()) {
            ok += r.succeeded(op);
            if (r.ops(op) > 0) {
                LatencySummary l = run.latency().get(op);
                rows.add(new DsOpRow(op.label(), r.ops(op), r.succeeded(op),
                        inWords(op, map, r.succeeded(op), r.failed(op)), l == null ? NONE : l,
                        cost -> r.perOp(op, cost)));
            }
        }
        rows.add(new DsOpRow("all", r.ops(), ok, "-", run.all() == null ? NONE : run.all(), r::perOp));
        return rows;
    }

    /**
     * What an operation type's true and false results mean, in words: a lookup and a read-modify-write
     * {@code found} or {@code missing} the key, an insert {@code inserted} it or found it {@code present}
     * (a map's put {@code replaced} its value), a remove {@code removed} it or found it {@code absent}, an
     * update {@code inserted} the key or {@code replaced} its value.
     *
     * @param op      the operation type
     * @param map     whether the structure is the hash map
     * @param trues   operations that returned true
     * @param falses  operations that returned false
     * @return the counts with their words, such as {@code 0 inserted, 37 replaced}
     */
    private static String inWords(OpType op, boolean map, long trues, long falses) {
        String[] words = switch (op) {
            case LOOKUP, RMW -> new String[] {"found", "missing"};
            case INSERT -> new String[] {"inserted", map ? "replaced" : "present"};
            case REMOVE -> new String[] {"removed", "absent"};
            case UPDATE -> new String[] {"inserted", "replaced"};
        };
        return trues + " " + words[0] + ", " + falses + " " + words[1];
    }
}
