package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.index.ClusterIndexBenchmark;
import io.remus.bench.index.ClusterIndexBenchmarkResult;
import io.remus.bench.index.IndexBenchmark;
import io.remus.bench.index.IndexBenchmarkConfig;
import io.remus.bench.index.IndexBenchmarkResult;
import io.remus.bench.perftest.ClusterJoin;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.structure.Ycsb;
import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.tools.index.IndexBenchFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code remus bench index}: the replicated, sharded index of remus-ds ({@code io.remus.ds.index}, each shard a
 * Mu-style replicated log: Aguilera et al., "Microsecond Consensus for Microsecond Applications", OSDI 2020) under
 * YCSB A, B or C with zipfian keys (bench-engines' {@link IndexBenchmark}), and beside it the unreplicated hash map
 * on the same workload, model and seed: throughput, latency percentiles, the shard leaders' RDMA operations and round
 * trips per operation, the clients' RPCs per operation, and the map's throughput, latency and round trips. Runs only
 * on the simulator in virtual time ({@code --sim-time virtual} with a {@code --sim-cost} model that charges time), so
 * its figures are the model's and the same seed gives the same JSON. Every value of {@code --replicas} runs on fresh
 * fabrics, in order. Exit status 0 on success, 1 when a run fails, 2 for bad flags (each refusal names the flag and
 * the value, before anything runs).
 *
 * <p>With one process per node (by the rule of {@link ClusterOptions}: {@code --cluster}, a join argument, or a
 * launcher's rank), this process joins a cluster with {@link RemusCluster#join} and runs one node of
 * {@link ClusterIndexBenchmark}: it serves its replicas of the shards with fail-over on, runs one client, and node 0
 * prints one report over the counts and latency histograms of every node that finished, timed by the processes'
 * clocks, with a {@code fail-over:} note when a leader changed or a node died; the hash map does not run.
 */
@Command(name = "index", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Replicated, sharded index: S shards of 2f + 1 replicas each (the first member of each leads), C "
                + "client nodes running YCSB A, B or C with zipfian keys; each operation is one RPC to its shard's "
                + "leader, which appends it to the shard's replicated log and answers once it is committed and "
                + "applied. Beside it, the unreplicated hash map on the same workload. Simulator, virtual time only: "
                + "give --sim-time virtual and --sim-cost connectx3, connectx5 or connectx6.", "",
                "One process per node instead with --cluster, or (without --no-cluster) a RemusCluster join argument "
                        + "this command does not know (--node-id=N, --rendezvous=DIR|tcp://HOST:PORT, --hostfile=FILE, "
                        + "...), or a launcher's rank with a size above 1 (mpirun: OMPI_COMM_WORLD_RANK/SIZE; srun: "
                        + "SLURM_PROCID/SLURM_NTASKS; PMI_RANK/PMI_SIZE): every node of the cluster is a client and a "
                        + "replica, shard s on nodes s..s+N-1 (mod the node count) on replication plane 1+s (at most "
                        + "15 shards), with fail-over on: each group's lowest live node leads, and a dead rank's shards "
                        + "are taken over by their survivors; --num-ops operations per node, timed by each process's "
                        + "clock; node 0 prints one report over every node that finished, naming those that died, the "
                        + "others print nothing. Give every process the same flags.", ""})
public final class IndexBenchCommand extends ClusterCapableCommand {

    @Option(names = "--shards", paramLabel = "S", defaultValue = "2",
            description = "Shards, 1..16: shard s is nodes s*N..s*N+N-1 for N replicas, its first member leading; the clients follow (default ${DEFAULT-VALUE}).")
    int shards;

    @Mixin
    SharedOptions.ReplicasOption replicasOption;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "2",
            description = "Client nodes, 1..32, one client thread each (a node has one RPC endpoint, served by one thread) (default ${DEFAULT-VALUE}).")
    int clients;

    @Mixin
    SharedOptions.YcsbOption ycsbOption = new SharedOptions.YcsbOption("A");

    @Mixin
    SharedOptions.ZipfOption zipfOption;

    @Mixin
    SharedOptions.KeysOption keysOption = new SharedOptions.KeysOption("1024");

    @Mixin
    SharedOptions.ValueSizeOption valueSizeOption = new SharedOptions.ValueSizeOption(64);

    @Mixin
    SharedOptions.NumOpsOption numOpsOption = new SharedOptions.NumOpsOption(1000);

    @Mixin
    SharedOptions.LogSlotsOption slotsOption;

    @Mixin
    SimCostOption simCostOption;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    JsonOption jsonOption;

    @Mixin
    FabricOption fabricOption;

    @Mixin
    DeviceOption deviceOption;

    @Mixin
    ClusterOptions clusterOptions;

    /** A command that reads this process's environment. */
    public IndexBenchCommand() {
        this(System.getenv(), UnaryOperator.identity());
    }

    /** A command with its own environment and join settings ({@link ClusterCapableCommand}). */
    IndexBenchCommand(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup) {
        super(environment, joinSetup);
    }

    @Override
    ClusterOptions clusterOptions() {
        return clusterOptions;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (clusterMode()) {
            return callAsNode(spec.commandLine().getOut());
        }
        clusterOptions.refuseJoinArgs(joinArgs);
        if (fabricOption.fabric != null && fabricOption.fabric != FabricKind.SIM || deviceOption.device != null) {
            throw usage("bench index in one JVM runs on the simulator only; --fabric verbs or shm and -d are for one "
                    + "process per node (--cluster)");
        }
        List<IndexBenchmarkConfig> configs = configs();
        SimCostModel model = simCostOption.costModel(this::usage);
        if (!simTimeOption.isVirtual()) {
            throw usage("bench index runs in virtual time only; not with --sim-time "
                    + simTimeOption.clock.name().toLowerCase(Locale.ROOT)
                    + " (give --sim-time virtual --sim-cost connectx5)");
        }
        SimTime time = simTimeOption.clock(false, null, model, seedOption.seed, List.of(), this::usage);
        List<IndexBenchmarkResult> runs = new ArrayList<>();
        for (IndexBenchmarkConfig config : configs) {
            runs.add(IndexBenchmark.run(config, model, time));
        }
        List<String> notes = List.of("shard s of N replicas is nodes s*N..s*N+N-1, its first member leading with term 1; "
                        + "client c is node S*N+c; keys are 8-byte big-endian longs 0..K-1, all loaded before the run",
                "rdma_per_op and leader counts are the shard leaders' compute threads' over the measured operations; "
                        + "rpcs_per_op the clients' requests; the map runs bench ds' engine with one worker on each of C "
                        + "nodes beside the map's node 0, drawing the same operations and keys");
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOption.json) {
            IndexBenchFormat.writeJson(time.label(), notes, runs, out);
        } else {
            IndexBenchFormat.writeHuman(time.label(), notes, runs, out);
        }
        return 0;
    }

    /** The cluster mode: joins, runs this node, and prints the report on node 0. */
    private int callAsNode(PrintWriter out) {
        refuseSimCost(simCostOption.simCost);
        simTimeOption.clock(true, null, null, seedOption.seed, List.of(), this::usage);
        if (matched("--clients")) {
            throw usage("--clients: with one process per node every node runs one client; leave --clients out");
        }
        if (replicasOption.replicas.size() != 1) {
            throw usage("--replicas: one process per node runs one group size, got " + replicasOption.replicas);
        }
        ClusterJoin join = clusterOptions.prepare(joinArgs, fabricOption.fabric, deviceOption.device, environment,
                joinSetup, 0);
        int nodes = join.size();
        IndexBenchmarkConfig config = configs(nodes).getFirst();
        engineRule(() -> ClusterIndexBenchmark.shards(config, nodes), null);
        join.ensureSegment(ClusterIndexBenchmark.segmentBytes(config, nodes));
        try (RemusCluster joined = join.join()) {
            List<String> notes = join.notes(joined, "counts and latency histograms");
            notes.add("shard s of N replicas is nodes s..s+N-1 mod " + nodes + " on replication plane 1+s, with "
                    + "fail-over on: the lowest live member leads; every node runs one client on its RPC endpoint; "
                    + "keys are 8-byte big-endian longs 0..K-1, all loaded before the run");
            notes.add("seconds is the longest of the nodes' measured times; rdma_per_op and leader counts are the shard "
                    + "leaders' compute threads' over the measured operations; rpcs_per_op the clients' requests");
            ClusterIndexBenchmarkResult result = new ClusterIndexBenchmark(joined, join.timeout()).run(config);
            ClusterIndexBenchmarkResult.Failover f = result.failover();
            if (f.happened()) {
                notes.add(String.format(Locale.ROOT, "fail-over: %d takeovers, highest term %d, %d recovered entries, "
                        + "%d followers caught up, longest operation that met an unanswered attempt %.3f ms, %d "
                        + "operations sent again, nodes gone %s (their counts are missing)", f.takeovers(), f.term(),
                        f.recoveredEntries(), f.caughtUpFollowers(), f.longestDisruptedNanos() / 1e6,
                        f.retriedOperations(), f.absentNodes()));
            }
            if (joined.nodeId() == 0) {
                String fabric = joined.fabric().name();
                if (jsonOption.json) {
                    IndexBenchFormat.writeClusterJson(fabric, notes, List.of(result), out);
                } else {
                    IndexBenchFormat.writeClusterHuman(fabric, notes, List.of(result), out);
                }
            }
        }
        return 0;
    }

    /**
     * Validates the flags into one configuration per run, one per value of {@code --replicas}, in order.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<IndexBenchmarkConfig> configs() {
        return configs(clients);
    }

    private List<IndexBenchmarkConfig> configs(int clients) {
        int keys = keysOption.one();
        List<IndexBenchmarkConfig> configs = new ArrayList<>();
        try {
            Ycsb ycsb;
            try {
                ycsb = Ycsb.parse(ycsbOption.ycsb);
            } catch (BadArgumentException e) {
                throw new BadArgumentException("--ycsb: " + e.getMessage());
            }
            for (int n : replicasOption.replicas) {
                configs.add(new IndexBenchmarkConfig(shards, n, clients, ycsb, zipfOption.zipf, keys,
                        valueSizeOption.valueSize, numOpsOption.numOps, slotsOption.slots, seedOption.seed));
            }
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
        return configs;
    }
}
