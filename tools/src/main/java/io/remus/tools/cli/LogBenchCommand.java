package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.replicate.LogBenchmark;
import io.remus.bench.replicate.LogBenchmarkConfig;
import io.remus.bench.replicate.LogBenchmarkResult;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.tools.log.LogFormat;
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
 * {@code remus bench log}: the replicated log of remus-ds ({@code io.remus.ds.replicate}, after Mu: Aguilera et al.,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020) measured as Mu reports it, one leader appending
 * entries of a given size to a group of {@code 2f + 1} members (bench-engines' {@link LogBenchmark}): the replication
 * latency of each append (median, p99), the RDMA operations, round trips and bytes the leader posts per append, and
 * the commit throughput. Runs only on the simulator in virtual time ({@code --sim-time virtual} with a
 * {@code --sim-cost} model that charges time), so its figures are the model's and the same seed gives the same JSON.
 * Every combination of {@code --replicas} and {@code --entry-bytes} runs on a fresh fabric, in that order. Exit
 * status 0 on success, 1 when a run fails, 2 for bad flags (each refusal names the flag and the value, before
 * anything runs).
 */
@Command(name = "log", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Replicated log (Mu's common case): one leader appends entries to a group of 2f + 1 members, "
                + "each append one WRITE per follower, returning once a majority holds it. Simulator, virtual time "
                + "only: give --sim-time virtual and --sim-cost connectx3, connectx5 or connectx6.", ""})
public final class LogBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--replicas", split = ",", paramLabel = "N", defaultValue = "3",
            description = "Members of the group, an odd 2f + 1 in 3..15; a comma list runs each (default ${DEFAULT-VALUE}).")
    List<Integer> replicas;

    @Option(names = "--entry-bytes", split = ",", paramLabel = "B", defaultValue = "64",
            description = "Bytes of every entry; a comma list runs each (default ${DEFAULT-VALUE}).")
    List<Integer> entryBytes;

    @Option(names = "--appends", paramLabel = "N", defaultValue = "1000",
            description = "Appends measured per run, one at a time (default ${DEFAULT-VALUE}).")
    long appends;

    @Option(names = "--log-slots", paramLabel = "S", defaultValue = "256",
            description = "Slots of each member's log; past them the log wraps and slots are reused (default ${DEFAULT-VALUE}).")
    int slots;

    @Mixin
    SimCostOption simCostOption;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    JsonOption jsonOption;

    /** Picocli creates it. */
    public LogBenchCommand() {
    }

    @Override
    public Integer call() throws InterruptedException {
        List<LogBenchmarkConfig> configs = configs();
        SimCostModel model = simCostOption.costModel(this::usage);
        if (!simTimeOption.isVirtual()) {
            throw usage("bench log runs in virtual time only; not with --sim-time "
                    + simTimeOption.clock.name().toLowerCase(Locale.ROOT)
                    + " (give --sim-time virtual --sim-cost connectx5)");
        }
        SimTime time = simTimeOption.clock(false, null, model, seedOption.seed, List.of(), this::usage);
        List<LogBenchmarkResult> runs = new ArrayList<>();
        for (LogBenchmarkConfig config : configs) {
            runs.add(LogBenchmark.run(config, model, time));
        }
        List<String> notes = List.of("a group of N replicas is nodes 0..N-1, the leader on node 0; each member's "
                        + "applier polls its log every " + LogBenchmark.POLL_NANOS + " ns of virtual time when idle",
                "counts are the leader's compute thread's over the measured appends: its open and final commit flush "
                        + "are left out");
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOption.json) {
            LogFormat.writeJson(time.label(), notes, runs, out);
        } else {
            LogFormat.writeHuman(time.label(), notes, runs, out);
        }
        return 0;
    }

    /**
     * Validates the flags into one configuration per run, in run order: for each group size, each entry size.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<LogBenchmarkConfig> configs() {
        List<LogBenchmarkConfig> configs = new ArrayList<>();
        try {
            for (int n : replicas) {
                for (int bytes : entryBytes) {
                    configs.add(new LogBenchmarkConfig(n, bytes, appends, slots));
                }
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
