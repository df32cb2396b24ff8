package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.index.IndexBenchmark;
import io.remus.bench.index.IndexBenchmarkConfig;
import io.remus.bench.index.IndexBenchmarkResult;
import io.remus.bench.structure.Ycsb;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.tools.index.IndexBenchFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

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
 */
@Command(name = "index", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Replicated, sharded index: S shards of 2f + 1 replicas each (the first member of each leads), C "
                + "client nodes running YCSB A, B or C with zipfian keys; each operation is one RPC to its shard's "
                + "leader, which appends it to the shard's replicated log and answers once it is committed and "
                + "applied. Beside it, the unreplicated hash map on the same workload. Simulator, virtual time only: "
                + "give --sim-time virtual and --sim-cost connectx3, connectx5 or connectx6.", ""})
public final class IndexBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

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

    /** Picocli creates it. */
    public IndexBenchCommand() {
    }

    @Override
    public Integer call() throws InterruptedException {
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

    /**
     * Validates the flags into one configuration per run, one per value of {@code --replicas}, in order.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<IndexBenchmarkConfig> configs() {
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

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
