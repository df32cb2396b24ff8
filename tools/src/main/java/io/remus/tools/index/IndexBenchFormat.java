package io.remus.tools.index;

import io.remus.bench.index.ClusterIndexBenchmarkResult;
import io.remus.bench.index.IndexBenchmarkResult;
import io.remus.bench.index.IndexRunCounts;
import io.remus.bench.report.ReportTable;
import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Cost;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;

/**
 * The outputs of {@code remus bench index}, from one declaration of a run's columns.
 * <p>
 * The default output: a line saying how every figure was timed, then one row per run with the shards, replicas and
 * clients, the index's throughput, median and p99 latency, the leaders' RDMA operations and round trips per operation,
 * the clients' RPCs and the network round trips per operation, then the hash map's throughput, median latency and
 * round trips per operation on the same workload, and the ratio of the two throughputs.
 * <p>
 * {@code --json}: one JSON object with keys {@code tool}, {@code test} ({@code "index"}), {@code fabric}
 * ({@code "sim"}), {@code time} ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}),
 * {@code notes} and {@code runs}. A run has {@code shards replicas clients ycsb zipf keys value_bytes ops_per_client
 * log_slots}; the index's {@code ops seconds ops_per_sec}, {@code latency_ns}, {@code read_latency_ns} and
 * {@code update_latency_ns} (objects: {@code count p50 p99 p999 max mean}, each operation at its client from the call
 * to the answer), {@code reads found updates replaced}, {@code rdma_per_op} (RDMA operations the shard leaders'
 * compute threads posted per index operation: an object keyed by opcode, lower case, and {@code total}),
 * {@code leader_round_trips_per_op}, {@code leader_bytes_written_per_op}, {@code appends_per_op},
 * {@code rpcs_per_op} (the clients' requests, one network round trip each), {@code network_round_trips_per_op}
 * (the two added), {@code not_leader_answers retry_answers}; the hash map's {@code map_ops map_seconds
 * map_ops_per_sec}, {@code map_latency_ns} and {@code map_rdma_per_op} (its workers' compute threads:
 * {@code read write compare_and_swap fetch_and_add total}), {@code map_round_trips_per_op}; and
 * {@code map_over_index_throughput}, {@code index_over_map_p50}. Every time is virtual time; the same command line
 * and seed give the same object.
 * <p>
 * With one process per node ({@link #writeClusterJson}): the same keys with {@code fabric} the cluster's and
 * {@code time} {@code "each process's clock"}, and a run without the hash map's keys; a run's {@code clients} is the
 * cluster's node count, {@code seconds} the longest of the nodes' measured times.
 */
public final class IndexBenchFormat {
    private static final ReportTable<IndexBenchmarkResult> RUN = IndexBenchFormat.<IndexBenchmarkResult>indexColumns()
            .field("map_ops", r -> r.map().result().ops())
            .field("map_seconds", r -> r.map().result().elapsedNanos() / 1e9)
            .field("map_ops_per_sec", r -> r.map().result().opsPerSecond()).shown("map op/s", "%10.0f")
            .field("map_latency_ns.count", r -> r.map().all().count())
            .field("map_latency_ns.p50", r -> r.map().all().median())
            .shown("map p50", "%7.3f", r -> r.map().all().median() / 1000.0)
            .field("map_latency_ns.p99", r -> r.map().all().p99())
            .field("map_latency_ns.p999", r -> r.map().all().p999())
            .field("map_latency_ns.max", r -> r.map().all().max())
            .field("map_latency_ns.mean", r -> r.map().all().mean())
            .field("map_rdma_per_op.read", r -> r.mapPerOp(Cost.READS))
            .field("map_rdma_per_op.write", r -> r.mapPerOp(Cost.WRITES))
            .field("map_rdma_per_op.compare_and_swap", r -> r.mapPerOp(Cost.COMPARE_AND_SWAPS))
            .field("map_rdma_per_op.fetch_and_add", r -> r.mapPerOp(Cost.FETCH_AND_ADDS))
            .field("map_rdma_per_op.total", r -> r.map().result().rdmaPerOp())
            .field("map_round_trips_per_op", r -> r.mapPerOp(Cost.ROUND_TRIPS)).shown("map RT", "%6.2f")
            .field("map_over_index_throughput", r -> r.mapOverIndexThroughput()).shown("map/idx", "%7.2f")
            .field("index_over_map_p50", r -> r.indexOverMapMedian());

    private static final ReportTable<ClusterIndexBenchmarkResult> CLUSTER_RUN = indexColumns();
    private static final String CLUSTER_TIME = "each process's clock";

    private IndexBenchFormat() {
    }

    /** The columns both tables have: the run, its latencies, and the leaders' and clients' counts per operation. */
    private static <R extends IndexRunCounts> ReportTable<R> indexColumns() {
        return latency(latency(latency(
            new ReportTable<R>(Locale.ROOT)
                    .field("shards", r -> r.config().shards()).shown("shards", "%6d")
                    .field("replicas", r -> r.config().replicas()).shown("replicas", "%8d")
                    .field("clients", r -> r.config().clients()).shown("clients", "%7d")
                    .field("ycsb", r -> r.config().ycsb().name()).shown("ycsb", "%4s")
                    .field("zipf", r -> r.config().effectiveTheta())
                    .field("keys", r -> r.config().keys())
                    .field("value_bytes", r -> r.config().valueBytes())
                    .field("ops_per_client", r -> r.config().opsPerClient())
                    .field("log_slots", r -> r.config().logSlots())
                    .field("ops", r -> r.ops())
                    .field("seconds", r -> r.elapsedNanos() / 1e9)
                    .field("ops_per_sec", r -> r.opsPerSecond()).shown("index op/s", "%10.0f"),
            "latency_ns", IndexRunCounts::allLatency, true), "read_latency_ns", IndexRunCounts::readLatency,
            false), "update_latency_ns", IndexRunCounts::updateLatency, false)
            .field("reads", r -> r.reads())
            .field("found", r -> r.found())
            .field("updates", r -> r.updates())
            .field("replaced", r -> r.replaced())
            .rdmaPerOp(r -> r::leaderPostedPerOp, r -> r.leaderPostedPerOp())
            .field("leader_round_trips_per_op", r -> r.leaderRoundTripsPerOp()).shown("ldr RT", "%6.2f")
            .field("leader_bytes_written_per_op", r -> r.leaderBytesWrittenPerOp())
            .field("appends_per_op", r -> r.appendsPerOp())
            .field("rpcs_per_op", r -> r.rpcsPerOp()).shown("RPC", "%5.2f")
            .field("network_round_trips_per_op", r -> r.networkRoundTripsPerOp()).shown("net RT", "%6.2f")
            .field("not_leader_answers", r -> r.notLeaderAnswers())
            .field("retry_answers", r -> r.retryAnswers());
    }

    private static <R> ReportTable<R> latency(ReportTable<R> table, String group, Function<R, LatencySummary> latency,
                                              boolean shown) {
        table.field(group + ".count", r -> latency.apply(r).count())
                .field(group + ".p50", r -> latency.apply(r).median());
        if (shown) {
            table.shown("p50 us", "%7.3f", r -> latency.apply(r).median() / 1000.0);
        }
        table.field(group + ".p99", r -> latency.apply(r).p99());
        if (shown) {
            table.shown("p99 us", "%7.3f", r -> latency.apply(r).p99() / 1000.0);
        }
        return table.field(group + ".p999", r -> latency.apply(r).p999())
                .field(group + ".max", r -> latency.apply(r).max())
                .field(group + ".mean", r -> latency.apply(r).mean());
    }

    /**
     * Writes the default output.
     *
     * @param time  how the figures were timed ({@code SimTime#label()})
     * @param notes the report's notes
     * @param runs  the runs
     * @param out   where they go
     */
    public static void writeHuman(String time, List<String> notes, List<IndexBenchmarkResult> runs, PrintWriter out) {
        ReportTable.title(out, "index", "sim", notes);
        out.println("every figure below is " + time);
        RUN.print(out, "", runs);
        out.println("(index op/s, p50/p99: the index's throughput, all clients together, and each operation's latency at "
                + "its client; READ..total: RDMA operations the shard leaders posted per index operation; ldr RT: the "
                + "leaders' round trips per operation; RPC: the clients' requests per operation; net RT: network round "
                + "trips per operation, the two added; map op/s, map p50, map RT: the unreplicated hash map on the same "
                + "workload, model and seed, its workers' round trips per operation; map/idx: its throughput over the "
                + "index's)");
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
    public static void writeJson(String time, List<String> notes, List<IndexBenchmarkResult> runs, PrintWriter out) {
        out.println(reportObject("index", "sim", b -> field(b, "time", str(time)), notes, runs,
                (b, r) -> b.append(RUN.json(r)), b -> { }));
        out.flush();
    }

    /**
     * Writes the default output of one process per node.
     *
     * @param fabric the cluster's fabric
     * @param notes  the report's notes
     * @param runs   the runs
     * @param out    where they go
     */
    public static void writeClusterHuman(String fabric, List<String> notes, List<ClusterIndexBenchmarkResult> runs,
                                         PrintWriter out) {
        ReportTable.title(out, "index", fabric, notes);
        out.println("every figure below is timed by " + CLUSTER_TIME);
        CLUSTER_RUN.print(out, "", runs);
        out.println("(index op/s, p50/p99: the index's throughput, all clients together, and each operation's latency at "
                + "its client; READ..total: RDMA operations the shard leaders posted per index operation; ldr RT: the "
                + "leaders' round trips per operation; RPC: the clients' requests per operation; net RT: network round "
                + "trips per operation, the two added)");
        out.flush();
    }

    /**
     * Writes the {@code --json} object of one process per node.
     *
     * @param fabric the cluster's fabric
     * @param notes  the report's notes
     * @param runs   the runs
     * @param out    where the object goes, as one line
     */
    public static void writeClusterJson(String fabric, List<String> notes, List<ClusterIndexBenchmarkResult> runs,
                                        PrintWriter out) {
        out.println(reportObject("index", fabric, b -> field(b, "time", str(CLUSTER_TIME)), notes, runs,
                (b, r) -> b.append(CLUSTER_RUN.json(r)), b -> { }));
        out.flush();
    }
}
