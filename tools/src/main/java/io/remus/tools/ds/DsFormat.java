package io.remus.tools.ds;

import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.DsBenchmarkResult;
import io.remus.bench.structure.DsOpRow;
import io.remus.bench.structure.DsRun;
import io.remus.bench.report.ReportTable;

import java.io.PrintWriter;
import java.util.List;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench ds}, from one declaration of a run's and of an operation type's columns.
 * <p>
 * The default output: per run, its configuration and throughput, then one row per operation type (and one
 * for all of them) with counts, outcomes in words, latency percentiles and the compute threads' RDMA counts per
 * operation.
 * <p>
 * A sweep (a {@code --structure} or {@code --threads} list): the settings every run shares, then one row per
 * run, in run order: its structure (with the lazy list's lock), threads per node, throughput, the p50 and p99
 * latency of all its operations, and the compute threads' RDMA operations (READs, WRITEs, compare-and-swaps
 * and fetch-and-adds together) and round trips per operation.
 * <p>
 * {@code --json FILE}: one JSON object with keys {@code tool}, {@code test} ({@code "ds"}), {@code fabric},
 * {@code notes} and {@code runs}. A run has {@code structure lock ycsb} (null without) {@code nodes
 * threads_per_node home_workers num_ops} (per thread; null in a duration run) {@code prefill insert remove
 * key_lb key_ub zipf value_size seconds prefilled operations ops_per_sec}, {@code all} and {@code ops}:
 * {@code all} an object of every operation's {@code count true false latency_ns per_op}, and {@code ops} one
 * such object per operation type the run issued, keyed by type ({@code lookup insert remove update rmw}).
 * {@code latency_ns} holds {@code p50 p90 p99 p999 max mean}; {@code per_op} the compute threads' counts per
 * operation ({@code round_trips reads writes compare_and_swaps fetch_and_adds bytes_read bytes_written
 * allocator_round_trips reclaimer_round_trips key_generator_round_trips}; the last three are parts of
 * {@code round_trips}).
 * <p>
 * A report timed in virtual time ({@link DsReport#time()}) has {@code time} after {@code fabric}
 * ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}): its seconds, throughputs and latencies are
 * virtual time, and the default and sweep outputs say so above their tables.
 */
public final class DsFormat {
    private static final ReportTable<DsOpRow> OP = opTable();

    private static final ReportTable<DsRun> RUN = new ReportTable<DsRun>()
            .field("structure", r -> config(r).structure().flagName())
            .field("lock", r -> config(r).lock().cliName())
            .field("ycsb", r -> config(r).ycsb() == null ? null : config(r).ycsb().name())
            .field("nodes", r -> config(r).nodes())
            .field("threads_per_node", r -> config(r).threadsPerNode())
            .field("home_workers", r -> config(r).homeWorkers())
            .field("num_ops", r -> config(r).duration() == null ? config(r).opsPerThread() : null)
            .field("prefill", r -> config(r).prefillPercent())
            .field("insert", r -> config(r).insertPercent())
            .field("remove", r -> config(r).removePercent())
            .field("key_lb", r -> config(r).keyLb())
            .field("key_ub", r -> config(r).keyUb())
            .field("zipf", r -> config(r).effectiveTheta())
            .field("value_size", r -> config(r).valueBytes())
            .field("seconds", r -> r.result().elapsedNanos() / 1e9)
            .field("prefilled", r -> r.result().prefilled())
            .field("operations", r -> r.result().ops())
            .field("ops_per_sec", r -> r.result().opsPerSecond())
            .json("all", r -> OP.json(DsOpRow.of(r).getLast()))
            .json("ops", r -> "{" + String.join(",", DsOpRow.of(r).stream().filter(o -> !o.name().equals("all"))
                    .map(o -> str(o.name()) + ":" + OP.json(o)).toList()) + "}");

    private static final ReportTable<DsRun> SWEEP = new ReportTable<DsRun>()
            .column("structure", "%-20s", r -> config(r).label())
            .column("threads", "%7d", r -> config(r).threadsPerNode())
            .column("ops/s", "%12.0f", r -> r.result().opsPerSecond())
            .column("p50 us", "%9.1f", r -> LatencySummary.usec(r.all().median()))
            .column("p99 us", "%9.1f", r -> LatencySummary.usec(r.all().p99()))
            .column("RDMA/op", "%9.2f", r -> r.result().rdmaPerOp())
            .column("RT/op", "%7.2f", r -> r.result().perOp(Cost.ROUND_TRIPS));

    private DsFormat() {
    }

    private static ReportTable<DsOpRow> opTable() {
        ReportTable<DsOpRow> t = new ReportTable<DsOpRow>()
                .column("op", "%-7s", DsOpRow::name)
                .field("count", DsOpRow::ops).shown("ops", "%9d")
                .field("true", DsOpRow::ok).shown("outcomes", "%30s", DsOpRow::outcomes)
                .field("false", o -> o.ops() - o.ok())
                .field("latency_ns.p50", o -> o.latency().median()).shown("p50 us", "%9.1f", o -> us(o.latency().median()))
                .field("latency_ns.p90", o -> o.latency().p90())
                .field("latency_ns.p99", o -> o.latency().p99()).shown("p99 us", "%9.1f", o -> us(o.latency().p99()))
                .field("latency_ns.p999", o -> o.latency().p999())
                .shown("p99.9 us", "%9.1f", o -> us(o.latency().p999()))
                .field("latency_ns.max", o -> o.latency().max()).shown("max us", "%10.1f", o -> us(o.latency().max()))
                .field("latency_ns.mean", o -> o.latency().mean())
                .column("RT", "%7.2f", o -> o.perOp().applyAsDouble(Cost.ROUND_TRIPS))
                .column("(alloc)", "%7.2f", o -> o.perOp().applyAsDouble(Cost.ALLOCATOR_ROUND_TRIPS))
                .column("(recl)", "%7.2f", o -> o.perOp().applyAsDouble(Cost.RECLAIMER_ROUND_TRIPS))
                .column("(keygen)", "%8.2f", o -> o.perOp().applyAsDouble(Cost.KEY_GENERATOR_ROUND_TRIPS))
                .column("READ", "%6.2f", o -> o.perOp().applyAsDouble(Cost.READS))
                .column("WRITE", "%6.2f", o -> o.perOp().applyAsDouble(Cost.WRITES))
                .column("CAS", "%6.2f", o -> o.perOp().applyAsDouble(Cost.COMPARE_AND_SWAPS))
                .column("FAA", "%6.2f", o -> o.perOp().applyAsDouble(Cost.FETCH_AND_ADDS))
                .column("B read", "%8.1f", o -> o.perOp().applyAsDouble(Cost.BYTES_READ))
                .column("B write", "%8.1f", o -> o.perOp().applyAsDouble(Cost.BYTES_WRITTEN));
        for (Cost cost : Cost.values()) {
            t.field("per_op." + cost.label(), o -> o.perOp().applyAsDouble(cost));
        }
        return t;
    }

    /**
     * Writes the default output.
     *
     * @param report the runs
     * @param out    where they go
     */
    public static void writeHuman(DsReport report, PrintWriter out) {
        title(report, out);
        for (DsRun run : report.runs()) {
            DsBenchmarkResult r = run.result();
            DsBenchmarkConfig c = r.config();
            out.printf("%s: %d nodes x %d threads%s, keys %d..%d%s, %s; prefilled %d; %d ops in %.3f s: %.0f ops/s%n",
                    c.label(), c.nodes(), c.threadsPerNode(), c.homeWorkers() ? "" : " (none on node 0)", c.keyLb(),
                    c.keyUb(), c.effectiveTheta() > 0 ? " zipf " + c.effectiveTheta() : " uniform", mix(c),
                    r.prefilled(), r.ops(), r.elapsedNanos() / 1e9, r.opsPerSecond());
            OP.print(out, "  ", DsOpRow.of(run));
        }
        out.println("(latency per operation of every worker" + inVirtualTime(report)
                + "; RT..B write: the compute threads' counts per operation: "
                + "round trips, of them the allocator's, the epoch reclaimer's and YCSB D's key generator's, RDMA READs, WRITEs, compare-and-swaps, fetch-and-adds, bytes "
                + "read and written; work on a worker's own node that takes the CPU path is not counted)");
        out.flush();
    }

    /**
     * Writes a sweep's output.
     *
     * @param report the runs, which differ only in structure and threads per node
     * @param out    where they go
     */
    public static void writeSweep(DsReport report, PrintWriter out) {
        title(report, out);
        DsBenchmarkConfig c = config(report.runs().getFirst());
        out.printf("%d nodes%s, keys %d..%d%s, %s, %s%n", c.nodes(), c.homeWorkers() ? "" : " (no workers on node 0)",
                c.keyLb(), c.keyUb(), c.effectiveTheta() > 0 ? " zipf " + c.effectiveTheta() : " uniform", mix(c),
                c.duration() != null ? c.duration().toMillis() / 1000.0 + " s per run" : c.opsPerThread() + " ops per thread");
        SWEEP.print(out, "  ", report.runs());
        out.println("(threads: workers per node that runs workers; p50, p99: latency of every operation of every "
                + "worker" + inVirtualTime(report) + "; RDMA/op: the compute threads' READs, WRITEs, compare-and-swaps and fetch-and-adds per "
                + "operation; RT/op: their round trips per operation; work on a worker's own node that takes the CPU "
                + "path is not counted)");
        out.flush();
    }

    /**
     * Writes the {@code --json} object.
     *
     * @param report the runs
     * @param out    where the object goes, as one line
     */
    public static void writeJson(DsReport report, PrintWriter out) {
        out.println(reportObject("ds", report.fabric(), b -> {
            if (report.time() != null) {
                field(b, "time", str(report.time()));
            }
        }, report.notes(), report.runs(), (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    private static void title(DsReport report, PrintWriter out) {
        ReportTable.title(out, "ds", report.fabric(), report.notes());
        if (report.time() != null) {
            out.println("every figure below is " + report.time());
        }
    }

    private static String inVirtualTime(DsReport report) {
        return report.time() == null ? "" : ", in usec of virtual time; ops/s: operations per second of virtual time";
    }

    private static String mix(DsBenchmarkConfig c) {
        return c.ycsb() != null ? "YCSB " + c.ycsb() : "insert " + c.insertPercent() + "% remove " + c.removePercent() + "%";
    }

    private static DsBenchmarkConfig config(DsRun run) {
        return run.result().config();
    }

    private static double us(long nanos) {
        return LatencySummary.usec(nanos);
    }
}
